// The real server (`bun api/main.ts`) bound to every interface: it prints each address it can be opened
// at, and a form posted from a page at any of those addresses is taken, while a request shaped like DNS
// rebinding (a host name that is not PUBLIC_URL, as both Host and Origin) is refused.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { networkInterfaces } from 'node:os'
import { cleanUpShops, createShop, type Shop } from '../../drills/support/shop'
import { logLines } from '../support/log-lines'

let shop: Shop
beforeAll(async () => {
  shop = createShop('addresses', { HOST: '0.0.0.0', LOG_LEVEL: 'info' })
  await shop.start()
})
afterAll(() => cleanUpShops())

/** This machine's IPv4 addresses, as the server sees them. */
function machineAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((info) => info.family === 'IPv4')
    .map((info) => info.address)
}

let client = 0
/** A newsletter sign-up sent to `address` (what the browser connects to) with these Host and Origin. */
async function signUp(address: string, headers: Record<string, string>): Promise<number> {
  client += 1
  const res = await fetch(`http://${address}:${shop.port}/api/newsletter`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': `10.88.0.${client}`,
      ...headers,
    },
    body: JSON.stringify({ email: `addresses.${client}@example.com` }),
  })
  await res.arrayBuffer()
  return res.status
}

describe('a server bound to 0.0.0.0', () => {
  test('prints PUBLIC_URL and every address it answers on', async () => {
    const startLine = () =>
      logLines(shop.output).find((line) => line.msg.startsWith('Grit & Whisker is open at'))
    // The server answers /api/ready as soon as it listens; its log reaches this process a moment later.
    for (const deadline = Date.now() + 5000; !startLine() && Date.now() < deadline; ) await Bun.sleep(10)
    const start = startLine()
    expect(start).toBeDefined()
    const printed = String(start?.addresses ?? '')
      .split(' ')
      .filter(Boolean)
    expect(printed[0]).toBe(`http://localhost:${shop.port}`)
    for (const address of machineAddresses()) {
      expect(printed).toContain(`http://${address}:${shop.port}`)
      expect(start?.msg).toContain(`http://${address}:${shop.port}`)
    }
  })

  test('a form posted from a page at each printed address is taken', async () => {
    for (const address of machineAddresses()) {
      const origin = `http://${address}:${shop.port}`
      expect(await signUp(address, { origin, 'sec-fetch-site': 'same-origin' })).toBe(200)
      expect(await signUp(address, { origin })).toBe(200)
    }
  })

  test('a DNS-rebinding-shaped request (a host name, not PUBLIC_URL, as Host and Origin) is refused', async () => {
    const rebound = `rebound.example:${shop.port}`
    const attempts: Record<string, string>[] = [
      { host: rebound, origin: `http://${rebound}`, 'sec-fetch-site': 'same-origin' },
      { host: rebound, origin: `http://${rebound}` },
    ]
    for (const headers of attempts) {
      expect(await signUp('127.0.0.1', headers)).toBe(403)
    }
    // An address as the Origin does not help a page on a name either.
    expect(await signUp('127.0.0.1', { host: rebound, origin: `http://127.0.0.1:${shop.port}` })).toBe(403)
  })
})
