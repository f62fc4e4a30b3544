// The real server (`bun api/main.ts`) started with none of the memory settings in its environment: it
// restarts itself in place with them (decision 031), as the same process, and serves; an operator's own
// value of one of them is kept.
import { afterAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { MEMORY_SETTINGS } from '../../../api/memory-settings'
import { cleanUpShops, createShop } from '../../drills/support/shop'

afterAll(() => cleanUpShops())

/** The environment a running process was started with, as the kernel keeps it. */
function environmentOf(pid: number): Record<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, 'utf8')
    .split('\0')
    .filter(Boolean)
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)])
  return Object.fromEntries(entries)
}

/** The settings left out of the environment the test runner hands the server. */
function withoutSettings(): Record<string, string | undefined> {
  return Object.fromEntries(Object.keys(MEMORY_SETTINGS).map((name) => [name, undefined]))
}

describe('memory settings', () => {
  test('a server started without them runs with them, as the process that was started', async () => {
    const shop = createShop('memory-settings')
    const server = await shop.start(withoutSettings() as Record<string, string>)
    const environment = environmentOf(server.pid)
    for (const [name, value] of Object.entries(MEMORY_SETTINGS)) expect(environment[name]).toBe(value)
    expect((await fetch(`${shop.base}/api/health`)).status).toBe(200)
  })

  test("an operator's own value is kept", async () => {
    const shop = createShop('memory-settings-own')
    const server = await shop.start({
      ...(withoutSettings() as Record<string, string>),
      BUN_JSC_heapGrowthMaxIncrease: '1.5',
    })
    const environment = environmentOf(server.pid)
    expect(environment.BUN_JSC_heapGrowthMaxIncrease).toBe('1.5')
    expect(environment.MIMALLOC_PURGE_DELAY).toBe(MEMORY_SETTINGS.MIMALLOC_PURGE_DELAY)
  })
})
