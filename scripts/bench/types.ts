// What the orchestrator (scripts/bench.ts, Bun) and the load generators (scripts/bench/load.ts and
// scripts/bench/large-shop-load.ts, Node) pass each other as JSON files.

export interface LoadConfig {
  /** Always http://127.0.0.1:<port>: the benchmark never sends traffic anywhere else. */
  baseUrl: string
  connections: number
  warmupSeconds: number
  durationSeconds: number
  /** A small file of the built site, served by the same server: the baseline every ratio refers to. */
  staticPath: string
  /** Sessions whose completion events are timed, plus a few for warming up the webhook path. */
  webhookSessions: number
  webhookWarmupSessions: number
  /** Every this-many-th event is delivered twice, as providers retry: it must not make a second order. */
  redeliverEvery: number
  webhookSecret: string
  resultFile: string
  /** The server's process id and the kernel's clock ticks per second, for the server's CPU time. */
  serverPid: number
  clockTicks: number
  /** The API scenarios to measure (`--only=`); all of them when absent. The baseline always runs. */
  only?: ApiScenario[]
}

export const API_SCENARIOS = ['catalog', 'discount', 'rates', 'checkout', 'webhook'] as const
export type ApiScenario = (typeof API_SCENARIOS)[number]

export interface ScenarioResult {
  id: string
  title: string
  method: string
  path: string
  requests: number
  seconds: number
  perSecond: number
  latency: { p50: number; p90: number; p99: number; max: number }
  errors: number
  timeouts: number
  non2xx: number
  statusCodes: Record<string, number>
  /** Share of one core used during the measured run: near 100 % for the generator means it was the limit. */
  cpuPercent: { server: number | null; generator: number }
  /** The server's peak resident memory during the measured run, in MB (null if /proc was unreadable). */
  rssPeakMb: number | null
  /** A sample answer that was not 2xx, to say why (never a request body). */
  sampleFailure?: string
}

export interface WebhookResult extends ScenarioResult {
  /** Distinct checkout sessions that were sent a completion event (warm-up included). */
  sessionsSent: number
  timedSessions: number
  eventsSent: number
  redeliveries: number
  /** Answers of the timed run, by what the server said it did. */
  /**
   * `deliverAgain`: a redelivery that came while another worker still held the event, answered 503 with
   * Retry-After (api/modules/webhooks/index.ts) so the provider sends it once more: the right answer, not a
   * failure.
   */
  outcomes: { processed: number; duplicate: number; deliverAgain: number; other: number }
  /** New orders per second in the timed run (redeliveries make none). */
  ordersPerSecond: number
  /** Seconds spent creating sessions and signing events before the timed run. */
  preparationSeconds: number
}

export interface LoadResults {
  scenarios: ScenarioResult[]
  webhook: WebhookResult | null
  notes: string[]
}

/** One call of the large-shop scenario, with the headers (the session cookie) it is sent with. */
export interface LargeShopEndpoint {
  id: string
  title: string
  path: string
  headers: Record<string, string>
}

export interface LargeShopLoadConfig {
  baseUrl: string
  connections: number
  warmupSeconds: number
  durationSeconds: number
  endpoints: LargeShopEndpoint[]
  resultFile: string
  serverPid: number
  clockTicks: number
}
