// Drill: two real servers on one database, as behind a load balancer. Staff change a product's weight on
// one; the other's catalogue (its /api/catalog answer and ETag, its shipping rates) shows the new weight
// within a second, without a restart.
import { afterAll, expect, setDefaultTimeout, test } from 'bun:test'
import { join, resolve } from 'node:path'
import { recordDrill } from './support/counts'
import { cleanUpShops, createShop, HOME, post, type Shop } from './support/shop'

const ROOT = resolve(import.meta.dir, '../..')
const STAFF_EMAIL = 'bench.staff@example.com'
const STAFF_PASSWORD = 'a-long-staff-password'

// Two servers start and a staff password is hashed: slow on a busy machine.
setDefaultTimeout(90_000)
afterAll(() => cleanUpShops())

/** `npm run staff -- add` against the shared database. */
async function addStaff(databaseUrl: string): Promise<void> {
  const run = Bun.spawn([process.execPath, 'scripts/staff.ts', 'add', STAFF_EMAIL], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, STAFF_PASSWORD, NODE_ENV: 'test' },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [err, exitCode] = await Promise.all([new Response(run.stderr).text(), run.exited])
  expect(err).toBe('')
  expect(exitCode).toBe(0)
}

async function catalogue(shop: Shop, etag = ''): Promise<{ status: number; etag: string; weight: string }> {
  const res = await fetch(`${shop.base}/api/catalog`, { headers: { 'if-none-match': etag } })
  if (res.status === 304) return { status: 304, etag, weight: '' }
  const body = (await res.json()) as { products: { id: number; weight: string }[] }
  return {
    status: res.status,
    etag: res.headers.get('etag') ?? '',
    weight: body.products.find((product) => product.id === 5)?.weight ?? '',
  }
}

async function dearestRate(shop: Shop): Promise<number> {
  const items = [{ id: 5, quantity: 4, name: 'Anything', weight: '0.1' }]
  const res = await post(shop.base, '/api/shipping/rates', { address: HOME, items, subtotal: '0.01' })
  const body = (await res.json()) as { rates: { price: number }[] }
  return Math.max(...body.rates.map((rate) => rate.price))
}

test('a weight changed on one of two servers reaches the other within a second', async () => {
  const first = createShop('instances-a')
  const databaseUrl = `file:${join(first.dir, 'shop.db')}`
  const second = createShop('instances-b', { DATABASE_URL: databaseUrl })
  await first.start()
  await second.start()
  await addStaff(databaseUrl)

  const before = await catalogue(second)
  expect(before).toMatchObject({ status: 200, weight: '5.5' })
  const rateBefore = await dearestRate(second)

  const signIn = await post(first.base, '/api/auth/login', { email: STAFF_EMAIL, password: STAFF_PASSWORD })
  expect(signIn.status).toBe(200)
  const cookie = signIn.headers
    .getSetCookie()
    .map((header) => header.split(';')[0])
    .join('; ')
  const changed = await fetch(`${first.base}/api/products/5/weight`, {
    method: 'PATCH',
    headers: {
      'content-type': 'application/json',
      origin: `http://localhost:${first.port}`,
      cookie,
    },
    body: JSON.stringify({ weight: 30 }),
  })
  expect(changed.status).toBe(200)
  const changedAt = performance.now()

  let after = await catalogue(second, before.etag)
  while (after.status === 304 && performance.now() - changedAt < 3000) {
    await Bun.sleep(20)
    after = await catalogue(second, before.etag)
  }
  const seenAfterMs = Math.round(performance.now() - changedAt)
  expect(after).toMatchObject({ status: 200, weight: '30.0' })
  expect(after.etag).not.toBe(before.etag)
  expect(seenAfterMs).toBeLessThan(1000)
  const rateAfter = await dearestRate(second)
  expect(rateAfter).toBeGreaterThan(rateBefore)
  expect(await dearestRate(first)).toBe(rateAfter)

  const line = `drill several-instances: weight changed on server 1, seen by server 2 after ${seenAfterMs} ms (new ETag, rates ${rateBefore} → ${rateAfter})`
  console.log(line)
  recordDrill('several-instances', line)
})
