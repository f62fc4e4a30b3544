// The shop's entry point (`bun api/main.ts`): first makes sure the runtime runs with the shop's memory
// settings (api/memory-settings.ts), then reads the configuration and serves (api/server.ts), or with
// WORKERS > 1 starts that many servers on one port and looks after them (api/supervisor.ts). The
// supervisor loads neither the app nor the database client: both are imported only by the process that
// serves.
import { ConfigError, readConfig } from './env'
import { log, setLogLevel } from './lib/log'
import { restartWithMemorySettings } from './memory-settings'
import { PREPARE_ENV, supervise, workerNumber } from './supervisor'

/** This process's own command (runtime, its options, this file, its arguments): restarted, or run per worker. */
const command = [process.execPath, ...process.execArgv, ...process.argv.slice(1)]

restartWithMemorySettings(command, (message) => log.warn(message))

function fail(message: string): never {
  log.error(`Configuration error: ${message}`)
  process.exit(1)
}

let config: ReturnType<typeof readConfig>
try {
  config = readConfig()
} catch (error) {
  if (error instanceof ConfigError) fail(error.message)
  throw error
}
setLogLevel(config.logLevel)

const worker = workerNumber()
if (worker === null && config.workers > 1) {
  process.exit(await supervise({ workers: config.workers, command }))
}
const { startServer } = await import('./server')
await startServer(
  config,
  worker === null ? null : { number: worker, prepare: process.env[PREPARE_ENV] === '1' },
)
