import type { Database } from '../db/client'
import type { Config } from './env'
import type { Clock } from './lib/clock'
import type { StaticSite } from './plugins/static-site'

/** Everything the app needs from the outside world; tests pass their own. */
export interface AppDeps {
  config: Config
  db: Database
  clock: Clock
  site: StaticSite
}
