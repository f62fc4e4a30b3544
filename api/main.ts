import { resolve } from 'node:path'
import { openDatabase } from '../db/client'
import { seedDatabase } from '../db/seed'
import { createApp } from './app'
import { ConfigError, readConfig } from './env'
import { systemClock } from './lib/clock'
import { loadStaticSite } from './plugins/static-site'

function fail(message: string): never {
  console.error(`Configuration error: ${message}`)
  process.exit(1)
}

let config: ReturnType<typeof readConfig>
try {
  config = readConfig()
} catch (error) {
  if (error instanceof ConfigError) fail(error.message)
  throw error
}

const database = await openDatabase(config.databaseUrl, config.databaseAuthToken)
await seedDatabase(database.db)
const site = loadStaticSite(resolve(config.distDir))
if (site.size === 0) console.warn(`No built site in ${config.distDir}: run \`npm run build\`. The API still answers.`)

const app = createApp({ config, db: database.db, clock: systemClock, site })
app.listen({
  hostname: config.host,
  port: config.port,
  // A hard stop for bodies without Content-Length; JSON routes are capped lower in the security plugin.
  maxRequestBodySize: 1024 * 1024,
})

console.log(`Grit & Whisker is open at ${config.publicUrl} (listening on ${app.server?.hostname}:${app.server?.port})`)

let stopping = false
async function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  console.log(`${signal} received: finishing open requests, then closing.`)
  await app.stop()
  database.close()
  process.exit(0)
}
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))
