/**
 * Whether this process is shutting down. While it drains, /api/ready answers 503 so the load balancer
 * sends new requests elsewhere, and every answer carries `Connection: close` so no client sends another
 * request down a connection that is about to close; requests still arriving are served in full.
 */
export const lifecycle = { draining: false }
