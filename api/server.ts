import { resolve } from 'node:path'
import { openDatabase } from '../db/client'
import { createApp } from './app'
import { prepareData } from './boot'
import { ContentFileError, readShopContent, type ShopContent } from './content-at-boot'
import { depsFromConfig } from './deps'
import { type Config, demoPaymentsNotice } from './env'
import { lifecycle, quietFor } from './lib/lifecycle'
import { listeningAddresses } from './lib/listen-addresses'
import { errorMessage, log, setProcessLogFields } from './lib/log'
import { createJobRunner } from './modules/jobs/runner'
import { builtOriginWarning, incompleteSiteError, loadStaticSite } from './plugins/static-site'
import { createServices } from './services'
import { READY_MESSAGE } from './supervisor'

/** A server started by the supervisor (WORKERS > 1): its number, and whether it prepares the data. */
export interface WorkerRole {
  number: number
  prepare: boolean
}

/** How often a worker checks that its supervisor is still there. */
const PARENT_CHECK_MS = 1000

/** Requests count as still arriving for this long after the last one: the job runner then paces itself. */
const REQUESTS_RECENT_MS = 50

/**
 * One server process: opens the database (migrating it), prepares the data, loads the built site, listens
 * and runs the background jobs until SIGTERM or SIGINT. Alone (WORKERS=1) or as one of the supervisor's
 * workers, which listen on one port together, prepare the data only in the first, and write their number
 * on every log line.
 */
export async function startServer(config: Config, worker: WorkerRole | null): Promise<void> {
  if (worker) setProcessLogFields({ worker: worker.number })

  // Checkpoints on a thread of their own: requests never wait for the WAL's syncs (db/checkpoints.ts).
  const database = await openDatabase(config.databaseUrl, config.databaseAuthToken, {
    backgroundCheckpoints: true,
  })
  let content: ShopContent
  try {
    content = readShopContent()
    if (!worker || worker.prepare) await prepareData(database.db, content.products)
  } catch (error) {
    // A product file with a mistake would sell at a wrong price or not at all: the shop does not open.
    if (!(error instanceof ContentFileError)) throw error
    for (const line of error.message.split('\n')) log.error(line)
    log.error(
      'The shop did not start: fix the product file above (npm run check:content checks it), then start again',
    )
    process.exit(1)
  }
  const site = loadStaticSite(resolve(config.distDir))
  if (site.size === 0)
    log.warn(`No built site in ${config.distDir}: run \`npm run build\`. The API still answers.`)
  const incomplete = incompleteSiteError(site, config.distDir)
  if (incomplete) {
    log.error(incomplete)
    process.exit(1)
  }
  const originWarning = builtOriginWarning(site, config)
  if (originWarning) log.warn(originWarning)

  const deps = depsFromConfig(config, database.db, { site, waitlists: content.waitlists })
  const services = createServices(deps)
  const app = createApp(deps, services)
  app.listen({
    hostname: config.host,
    port: config.port,
    // A last stop below the app; the security plugin caps every state-changing body at 64 KB, chunked or not.
    maxRequestBodySize: 1024 * 1024,
    // Workers share the port; a lone server refuses a port another process already listens on.
    reusePort: worker !== null,
  })

  // E-mails and label purchases queued by paid orders; every instance may run this, claims are atomic.
  // Requests go first: while they keep arriving, jobs are paced (api/modules/jobs/pace.ts).
  const stopJobs = createJobRunner(services).start({
    concurrency: config.jobConcurrency,
    busy: () => performance.now() - lifecycle.lastRequestAt < REQUESTS_RECENT_MS,
  })
  log.info('services', { payments: deps.payments.name, shipping: deps.shipping.name, mail: deps.mailer.name })
  // Said at every boot: whoever runs the server should know that orders here cost nothing.
  const demoNotice = demoPaymentsNotice(config)
  if (demoNotice) log.warn(demoNotice)

  // Every address a person can open: PUBLIC_URL, then each address the listener answers on (all interfaces
  // when bound to 0.0.0.0 or ::); the shop's forms work at each of them (api/plugins/security.ts).
  const alsoAt = listeningAddresses(
    app.server?.hostname ?? config.host,
    app.server?.port ?? config.port,
  ).filter((address) => address !== config.publicUrl)
  log.info(
    `Grit & Whisker is open at ${config.publicUrl}${alsoAt.length > 0 ? ` (also at ${alsoAt.join(', ')})` : ''}`,
    {
      listening: `${app.server?.hostname}:${app.server?.port}`,
      addresses: [config.publicUrl, ...alsoAt].join(' '),
      pid: process.pid,
    },
  )

  let stopping = false
  /** After the drain, the listener closes once no request has come for this long… */
  const CLOSING_QUIET_MS = 250
  /** …or after this long, if clients never stop sending (and never honour Retry-After). */
  const CLOSING_MAX_MS = 5000

  /**
   * SIGTERM: first drains (not ready, every answer closes its connection, requests still served) so the load
   * balancer moves traffic away; then answers whatever still arrives with 503 and Retry-After until no
   * request has come for a moment, and stops listening then (closing a listener resets any connection still
   * being made to it); lets every request already received finish and the job in hand complete (queued jobs
   * wait for the next start), and closes the database. SIGINT (Ctrl-C) skips the drain and the quiet wait.
   */
  async function shutdown(signal: string) {
    if (stopping) return
    stopping = true
    lifecycle.draining = true
    const drainMs = signal === 'SIGTERM' ? config.shutdownDrainSeconds * 1000 : 0
    log.info('shutting down: draining, then finishing open requests and the current job', {
      signal,
      drainSeconds: drainMs / 1000,
    })
    const jobsStopped = stopJobs()
    await Bun.sleep(drainMs)
    if (signal === 'SIGTERM') {
      lifecycle.closing = true
      await quietFor(CLOSING_QUIET_MS, CLOSING_MAX_MS)
    }
    try {
      await Promise.all([app.stop(), jobsStopped])
    } catch (error) {
      log.error('shutdown did not finish cleanly', { error: errorMessage(error) })
    }
    database.close()
    log.info('stopped', { signal })
    process.exit(0)
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
  if (worker) {
    // The supervisor starts the next worker once this one listens, and restarts it if it dies.
    process.send?.(READY_MESSAGE)
    // A worker whose supervisor is gone (killed with SIGKILL) stops as on SIGTERM, instead of serving on
    // with nobody to restart it or to stop it: its parent is then another process.
    const parent = process.ppid
    setInterval(() => {
      if (process.ppid !== parent) void shutdown('SIGTERM')
    }, PARENT_CHECK_MS).unref()
  }
}
