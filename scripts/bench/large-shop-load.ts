// The load generator of the large-shop scenario (scripts/bench/large-shop.ts runs it once per shop size):
// `node large-shop-load.mjs <config.json>`. Each staff or order-history call is measured on its own, with
// the session cookie the orchestrator signed in for, and the results are written to the file the config
// names as ScenarioResult[].
import { readFileSync, writeFileSync } from 'node:fs'
import { type FireTarget, measure } from './fire'
import type { LargeShopLoadConfig, ScenarioResult } from './types'

const configFile = process.argv[2]
if (!configFile) throw new Error('usage: node large-shop-load.mjs <config.json>')
const config = JSON.parse(readFileSync(configFile, 'utf8')) as LargeShopLoadConfig
if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(config.baseUrl)) throw new Error(`refusing to load ${config.baseUrl}`)

const log = (line: string) => console.log(`[large-shop] ${line}`)

async function main(): Promise<void> {
  const target: FireTarget = {
    baseUrl: config.baseUrl,
    connections: config.connections,
    serverPid: config.serverPid,
    clockTicks: config.clockTicks,
  }
  const results: ScenarioResult[] = []
  for (const endpoint of config.endpoints) {
    results.push(
      await measure(
        target,
        {
          id: endpoint.id,
          title: endpoint.title,
          method: 'GET',
          path: endpoint.path,
          headers: endpoint.headers,
        },
        { warmupSeconds: config.warmupSeconds, durationSeconds: config.durationSeconds },
        log,
      ),
    )
  }
  writeFileSync(config.resultFile, JSON.stringify(results, null, 2))
}

main().catch((error: unknown) => {
  console.error(
    `[large-shop] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  )
  process.exit(1)
})
