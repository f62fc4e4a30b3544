// The part of autocannon 9's programmatic API the load generator uses (the package ships no types).
declare module 'autocannon' {
  export interface RequestSpec {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string
    /** Called once for every request sent; return the request to send. */
    setupRequest?: (request: RequestSpec, context: Record<string, unknown>) => RequestSpec
    /** Called with each answer, before the connection sends its next request. */
    onResponse?: (
      status: number,
      body: string,
      context: Record<string, unknown>,
      headers: Record<string, string>,
    ) => void
  }

  export interface Options {
    url: string
    connections: number
    /** Seconds; ignored when amount is set. */
    duration?: number
    /** Stop after exactly this many requests. */
    amount?: number
    pipelining?: number
    /** Seconds before a request counts as timed out. */
    timeout?: number
    requests: RequestSpec[]
  }

  export interface Result {
    errors: number
    timeouts: number
    non2xx: number
    statusCodeStats: Record<string, { count: number }>
    duration: number
  }

  export interface Instance extends PromiseLike<Result> {
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void,
    ): this
  }

  export default function autocannon(options: Options): Instance
}
