/**
 * Whether this process is shutting down, and how far along. While it drains, /api/ready answers 503 so
 * the load balancer sends new requests elsewhere, and every answer carries `Connection: close` so no
 * client sends another request down a connection that is about to close; requests still arriving are
 * served in full. Once the drain is over it is closing: a new request is answered 503 with Retry-After
 * (a client that sends without asking /api/ready is told to come back, not cut off), and the listener
 * closes once no request has come for a moment (api/server.ts).
 */
export const lifecycle = {
  draining: false,
  closing: false,
  /** performance.now() of the latest request to arrive. */
  lastRequestAt: 0,
}

/**
 * Resolves once no request has arrived for `quietMs` while this process was running, or after `maxMs`
 * whatever arrives. Closing the listener resets every connection still waiting in the kernel's queue
 * before a byte of its request is read; a quiet moment is when none is waiting. A pause of the process
 * (a long synchronous step, the machine busy elsewhere) starts the quiet time again: connections may have
 * queued meanwhile, unseen.
 */
export async function quietFor(quietMs: number, maxMs: number): Promise<void> {
  const tickMs = Math.min(25, quietMs)
  const deadline = performance.now() + maxMs
  let quietSince = Math.max(lifecycle.lastRequestAt, performance.now())
  for (;;) {
    const before = performance.now()
    await Bun.sleep(tickMs)
    const now = performance.now()
    if (now - before > tickMs * 4) quietSince = now
    quietSince = Math.max(quietSince, lifecycle.lastRequestAt)
    if (now - quietSince >= quietMs || now >= deadline) return
  }
}
