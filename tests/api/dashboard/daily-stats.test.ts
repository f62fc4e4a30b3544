// The stats' chart: orders and takings per day for the last 30 days, days as the shop counts them
// (SHOP_TIME_ZONE), across daylight-saving changes (a 23-hour and a 25-hour day) and in a time zone whose
// midnight is not on the hour; from the rollup the triggers keep, which stays equal to counting the orders.
// The answer names that time zone, for the dashboard's times.
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { orders } from '../../../db/schema/orders'
import { insertOrders } from '../support/bulk-orders'
import { paidOrder } from '../support/orders'
import { createTestApp, type TestApp } from '../support/test-app'
import { staffMember } from './helpers'

setDefaultTimeout(60_000)

const opened: TestApp[] = []
afterAll(() => {
  for (const shop of opened) shop.close()
})

/** A shop in `timeZone` whose clock reads `now`, and its staff member's view of the chart. */
async function shopIn(timeZone: string, now: string) {
  const shop = await createTestApp({ TRUST_PROXY: 'true', SHOP_TIME_ZONE: timeZone })
  opened.push(shop)
  shop.clock.set(new Date(now))
  const staff = await staffMember(shop)
  async function stats(): Promise<{
    days: { date: string; orders: number; takings: number }[]
    timeZone: string
  }> {
    const res = await shop.call('GET', '/api/dashboard/stats', undefined, { cookie: staff.cookie })
    expect(res.status).toBe(200)
    return await res.json()
  }
  return {
    shop,
    stats,
    async days(): Promise<{ date: string; orders: number; takings: number }[]> {
      return (await stats()).days
    },
  }
}

/** An order of `cents` in all (subtotal, no discount, no shipping) placed at `at`. */
const placed = (at: string, cents = 1000) => ({
  createdAt: new Date(at),
  subtotalCents: cents,
  shippingCents: 0,
})

describe('orders and takings per day', () => {
  test('30 days, oldest first, today last, each a calendar day in Chicago across the March change', async () => {
    const { shop, days } = await shopIn('America/Chicago', '2026-03-10T17:00:00Z')
    await insertOrders(shop, [
      // March 7th, 23:30 CST (UTC-6).
      placed('2026-03-08T05:30:00Z', 1250),
      // March 8th 00:30 CST; clocks go from 02:00 to 03:00; 23:30 CDT (UTC-5). A 23-hour day.
      placed('2026-03-08T06:30:00Z', 2000),
      placed('2026-03-08T08:30:00Z', 1000),
      placed('2026-03-09T04:30:00Z', 995),
      // March 9th, 00:30 CDT.
      placed('2026-03-09T05:30:00Z', 500),
    ])
    const answer = await days()
    expect(answer).toHaveLength(30)
    expect(answer[0]?.date).toBe('2026-02-09')
    expect(answer.at(-1)?.date).toBe('2026-03-10')
    // Consecutive calendar days, none skipped or repeated by the 23-hour day.
    for (let index = 1; index < answer.length; index++) {
      const gap = Date.parse(answer[index]?.date ?? '') - Date.parse(answer[index - 1]?.date ?? '')
      expect(gap).toBe(86_400_000)
    }
    const byDate = Object.fromEntries(answer.map((day) => [day.date, [day.orders, day.takings]]))
    expect(byDate['2026-03-07']).toEqual([1, 12.5])
    expect(byDate['2026-03-08']).toEqual([3, 39.95])
    expect(byDate['2026-03-09']).toEqual([1, 5])
    expect(answer.reduce((sum, day) => sum + day.orders, 0)).toBe(5)
    // Past the shop's next midnight (05:00 UTC in CDT) the window moves on by a day.
    shop.clock.set(new Date('2026-03-11T05:00:00Z'))
    const next = await days()
    expect([next[0]?.date, next.at(-1)?.date]).toEqual(['2026-02-10', '2026-03-11'])
  })

  test('the 25-hour day in November holds its extra hour', async () => {
    const { shop, days } = await shopIn('America/Chicago', '2026-11-02T20:00:00Z')
    await insertOrders(shop, [
      // November 1st 00:30 CDT (UTC-5); 01:30 twice (CDT, then CST); 23:30 CST (UTC-6).
      placed('2026-11-01T05:30:00Z'),
      placed('2026-11-01T06:30:00Z'),
      placed('2026-11-01T07:30:00Z'),
      placed('2026-11-02T05:30:00Z'),
      // November 2nd, 00:30 CST.
      placed('2026-11-02T06:30:00Z'),
      // October 31st, 23:30 CDT.
      placed('2026-11-01T04:30:00Z'),
    ])
    const answer = await days()
    expect(answer.slice(-3).map((day) => [day.date, day.orders])).toEqual([
      ['2026-10-31', 1],
      ['2026-11-01', 4],
      ['2026-11-02', 1],
    ])
  })

  test('a shop in Kathmandu (UTC+5:45) counts from its own midnight, a quarter past the hour in UTC', async () => {
    const { shop, days } = await shopIn('Asia/Kathmandu', '2026-03-02T06:00:00Z')
    await insertOrders(shop, [
      // 23:59 and 00:00 in Kathmandu.
      placed('2026-03-01T18:14:00Z'),
      placed('2026-03-01T18:15:00Z'),
      placed('2026-03-01T18:29:59Z'),
    ])
    const answer = await days()
    expect(answer.slice(-2).map((day) => [day.date, day.orders])).toEqual([
      ['2026-03-01', 1],
      ['2026-03-02', 2],
    ])
  })

  test("the stats name the shop's time zone, which the dashboard shows every time in", async () => {
    // The browser cannot know SHOP_TIME_ZONE: without it a laptop elsewhere would list the orders of
    // 'From 2026-03-02' at the wrong hours, or on the day before.
    const { stats } = await shopIn('Asia/Kathmandu', '2026-03-02T06:00:00Z')
    expect((await stats()).timeZone).toBe('Asia/Kathmandu')
  })

  test('orders older than 30 days are not shown; a real paid order counts at its total', async () => {
    const { shop, days } = await shopIn('America/Chicago', '2026-03-01T18:00:00Z')
    await insertOrders(shop, [placed('2026-01-30T18:00:00Z'), placed('2026-01-31T18:00:00Z')])
    const id = await paidOrder(shop)
    const [order] = await shop.deps.db.select().from(orders).where(sql`${orders.id} = ${id}`)
    const answer = await days()
    // The 30 days end on March 1st: January 31st is the first, January 30th is out.
    expect(answer[0]).toEqual({ date: '2026-01-31', orders: 1, takings: 10 })
    expect(answer.at(-1)).toEqual({ date: '2026-03-01', orders: 1, takings: (order?.totalCents ?? 0) / 100 })
  })

  test('the rollup equals counting the orders after inserts, changes of total and time, and deletes', async () => {
    const { shop } = await shopIn('America/Chicago', '2026-03-02T15:00:00Z')
    const ids = await insertOrders(shop, [
      placed('2026-03-01T10:00:00Z', 100),
      placed('2026-03-01T10:05:00Z', 200),
      placed('2026-03-01T10:20:00Z', 300),
    ])
    const { db } = shop.deps
    await db.run(sql`update ${orders} set total_cents = 700 where id = ${ids[0]}`)
    await db.run(sql`update ${orders} set created_at = created_at + 86400000 where id = ${ids[1]}`)
    await db.run(sql`update ${orders} set status = 'failed' where id = ${ids[2]}`)
    await db.run(sql`delete from ${orders} where id = ${ids[2]}`)
    const rollup = await db.all(
      sql`select quarter_hour, orders, takings_cents from order_quarter_hours where orders != 0 order by 1`,
    )
    const counted = await db.all(
      sql`select created_at / 900000 as quarter_hour, count(*) as orders, sum(total_cents) as takings_cents
          from ${orders} group by 1 order by 1`,
    )
    expect(rollup).toEqual(counted)
    expect(counted).toHaveLength(2)
  })
})
