// Staff find any order: GET /api/orders?q=&status=&from=&to= by number, e-mail or name, by status and by
// the shop's days, keyset-paged by ?before=; every kind answered from an index (checked with EXPLAIN QUERY
// PLAN on the very statement the search runs).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { parseOrderQuery } from '@core/rules/order-search'
import { orderCriteria } from '../../../api/modules/dashboard/service'
import {
  type OrderSearchCriteria,
  orderSearchQuery,
  type SearchPlan,
  TEXT_MATCHES_TO_SORT,
} from '../../../api/modules/orders/search'
import type { Customer } from '../support/accounts'
import { signUp } from '../support/accounts'
import { insertOrders } from '../support/bulk-orders'
import { paidOrder } from '../support/orders'
import { createTestApp, type TestApp } from '../support/test-app'
import { staffMember } from './helpers'

setDefaultTimeout(60_000)

let shop: TestApp
let staff: Customer
/** The orders the tests look for, by who placed them (numbers filled in as they are made). */
const ids = {
  lateOn19: 0,
  earlyOn20: 0,
  lateOn20: 0,
  earlyOn21: 0,
  skewed: 0,
  elise: 0,
  danny: 0,
  cole: 0,
  dana: 0,
  danaGifts: 0,
  lee: 0,
}
/** Orders of one customer, enough for three pages of 100. */
let turner: number[] = []

beforeAll(async () => {
  shop = await createTestApp({ TRUST_PROXY: 'true' })
  staff = await staffMember(shop)
  // Orders are numbered in the order they are written, and their times follow: oldest first.
  // Around midnight in Chicago (UTC-6 in February) on the 19th, 20th and 21st.
  const [lateOn19, earlyOn20, lateOn20, earlyOn21] = await insertOrders(shop, [
    { name: 'Night Owl', email: 'owl@example.com', createdAt: new Date('2026-02-20T05:30:00Z') },
    { name: 'Night Owl', email: 'owl@example.com', createdAt: new Date('2026-02-20T06:30:00Z') },
    // Written after the next one's time was read (an hour out of step): still on its own day.
    { name: 'Night Owl', email: 'owl@example.com', createdAt: new Date('2026-02-21T05:59:00Z') },
    { name: 'Night Owl', email: 'owl@example.com', createdAt: new Date('2026-02-21T06:00:00Z') },
  ])
  Object.assign(ids, { lateOn19, earlyOn20, lateOn20, earlyOn21 })
  const [, skewed] = await insertOrders(shop, [
    { name: 'Night Owl', email: 'owl@example.com', createdAt: new Date('2026-02-22T12:00:00Z') },
    { name: 'Night Owl', email: 'owl@example.com', createdAt: new Date('2026-02-22T11:00:00Z') },
  ])
  ids.skewed = skewed as number
  const [elise, danny, cole] = await insertOrders(shop, [
    { name: 'Élise Durand', email: 'elise@example.fr', createdAt: new Date('2026-02-25T16:00:00Z') },
    { name: 'danny ocean', email: 'ocean@example.com', createdAt: new Date('2026-02-26T16:00:00Z') },
    { name: 'Cole Porter', email: 'cole@example.net', createdAt: new Date('2026-02-27T16:00:00Z') },
  ])
  Object.assign(ids, { elise, danny, cole })
  // Paid through the shop, as customers pay: the order's customer key comes from the real batch.
  ids.dana = await paidOrder(shop, { name: 'Dana Cole', email: 'dana.cole@example.com' })
  ids.danaGifts = await paidOrder(shop, { name: 'Dana Cole', email: 'Dana.Cole+gifts@Example.com' })
  ids.lee = await paidOrder(shop, { name: 'Lee Ward', email: 'lee.ward@example.com' })
  turner = await insertOrders(
    shop,
    Array.from({ length: 250 }, (_, index) => ({
      name: 'Page Turner',
      email: 'page.turner@example.com',
      status: index % 5 === 0 ? ('failed' as const) : ('shipped' as const),
      // One every two hours from March 3rd (Chicago) on.
      createdAt: new Date(Date.parse('2026-03-03T08:00:00Z') + index * 2 * 3_600_000),
    })),
  )
  shop.clock.set(new Date('2026-03-25T15:00:00Z'))
})
afterAll(() => shop.close())

async function search(query: string): Promise<{ status: number; ids: number[]; body: unknown }> {
  const res = await shop.call('GET', `/api/orders?${query}`, undefined, { cookie: staff.cookie })
  const body = await res.json()
  return {
    status: res.status,
    ids: Array.isArray(body) ? (body as { id: number }[]).map((order) => order.id) : [],
    body,
  }
}

const newestFirst = (list: number[]) => [...list].sort((a, b) => b - a)

describe('by number', () => {
  test("'42', '000042', '#000042' and '# 42' find that order, and nothing else", async () => {
    const id = ids.lee
    for (const q of [String(id), String(id).padStart(6, '0'), `#${String(id).padStart(6, '0')}`, `# ${id}`]) {
      const found = await search(`q=${encodeURIComponent(q)}`)
      expect([q, found.status, found.ids]).toEqual([q, 200, [id]])
    }
    expect((await search('q=999999')).ids).toEqual([])
  })
})

describe('by e-mail', () => {
  test('a whole e-mail, in any case, finds every order of that customer, plus-addresses included', async () => {
    for (const q of ['dana.cole@example.com', 'DANA.Cole@Example.COM', 'dana.cole+gifts@example.com']) {
      const found = await search(`q=${encodeURIComponent(q)}`)
      expect([q, found.status, found.ids]).toEqual([q, 200, [ids.danaGifts, ids.dana]])
    }
    expect((await search(`q=${encodeURIComponent('nobody@example.com')}`)).ids).toEqual([])
  })

  test('the start of an e-mail finds it: with an @, or before one', async () => {
    expect((await search(`q=${encodeURIComponent('dana.cole@exa')}`)).ids).toEqual([ids.danaGifts, ids.dana])
    expect((await search('q=lee.w')).ids).toEqual([ids.lee])
    expect((await search(`q=${encodeURIComponent('ocean@')}`)).ids).toEqual([ids.danny])
  })

  test('an e-mail typed up to or into its plus-address finds that mailbox, whatever the tag', async () => {
    for (const q of ['dana.cole+', 'Dana.Cole+gi', 'dana.cole+gifts', 'dana.cole+other']) {
      const found = await search(`q=${encodeURIComponent(q)}`)
      expect([q, found.status, found.ids]).toEqual([q, 200, [ids.danaGifts, ids.dana]])
    }
    // The name before the `+` is whole: `lee+` is not `lee.ward`.
    expect((await search(`q=${encodeURIComponent('lee+')}`)).ids).toEqual([])
  })

  test('the answer carries the dashboard fields of each order', async () => {
    const found = await search(`q=${encodeURIComponent('lee.ward@example.com')}`)
    expect(found.body).toEqual([
      expect.objectContaining({
        id: ids.lee,
        number: String(ids.lee).padStart(6, '0'),
        customerName: 'Lee Ward',
        customerEmail: 'lee.ward@example.com',
        status: 'pending',
      }),
    ])
  })
})

describe('by name', () => {
  test('the start of a name in any case finds it; a word inside a name does not', async () => {
    expect((await search('q=dana')).ids).toEqual([ids.danaGifts, ids.dana])
    expect((await search(`q=${encodeURIComponent('DANA  co')}`)).ids).toEqual([ids.danaGifts, ids.dana])
    // 'dan' starts Dana's name and danny's.
    expect((await search('q=dan')).ids).toEqual([ids.danaGifts, ids.dana, ids.danny])
    // 'cole' starts Cole Porter's name and e-mail, and is only inside Dana Cole's.
    expect((await search('q=cole')).ids).toEqual([ids.cole])
    expect((await search(`q=${encodeURIComponent('Élise')}`)).ids).toEqual([ids.elise])
    expect((await search('q=zebra')).ids).toEqual([])
  })
})

describe('filters', () => {
  test('?status= narrows a search; several statuses are any of them', async () => {
    const failed = turner.filter((_, index) => index % 5 === 0)
    const q = `q=${encodeURIComponent('page.turner@example.com')}`
    expect((await search(`${q}&status=failed&limit=100`)).ids).toEqual(newestFirst(failed))
    expect((await search(`${q}&status=failed,shipped&limit=10`)).ids).toEqual(
      newestFirst(turner).slice(0, 10),
    )
    expect((await search('q=lee&status=shipped')).ids).toEqual([])
    expect((await search('q=lee&status=pending,shipped')).ids).toEqual([ids.lee])
  })

  test("?from= and ?to= are whole days in the shop's time zone, both included", async () => {
    const owl = `q=${encodeURIComponent('owl@example.com')}`
    expect((await search(`${owl}&from=2026-02-20&to=2026-02-20`)).ids).toEqual([ids.lateOn20, ids.earlyOn20])
    expect((await search(`${owl}&to=2026-02-19`)).ids).toEqual([ids.lateOn19])
    expect((await search(`${owl}&from=2026-02-21&to=2026-02-21`)).ids).toEqual([ids.earlyOn21])
    // Without search text the days alone find them, and with a status.
    expect((await search('from=2026-02-20&to=2026-02-20')).ids).toEqual([ids.lateOn20, ids.earlyOn20])
    expect((await search('from=2026-02-20&to=2026-02-20&status=shipped,failed')).ids).toEqual([
      ids.lateOn20,
      ids.earlyOn20,
    ])
    expect((await search('from=2026-02-20&to=2026-02-20&status=failed')).ids).toEqual([])
  })

  test('an order written after a later-stamped one (clocks an hour apart) is still on its own day', async () => {
    expect((await search('from=2026-02-22&to=2026-02-22')).ids).toContain(ids.skewed)
    expect((await search('from=2026-02-22&to=2026-02-22&status=shipped')).ids).toContain(ids.skewed)
  })

  test('everything together: text, statuses, days and a page', async () => {
    // March 5th in Chicago: the Page Turner orders from 06:00 UTC on the 5th to 06:00 UTC on the 6th.
    const onFifth = turner.filter((_, index) => {
      const at = Date.parse('2026-03-03T08:00:00Z') + index * 2 * 3_600_000
      return at >= Date.parse('2026-03-05T06:00:00Z') && at < Date.parse('2026-03-06T06:00:00Z')
    })
    expect(onFifth).toHaveLength(12)
    const q = `q=page&from=2026-03-05&to=2026-03-05&status=shipped,failed`
    const first = await search(`${q}&limit=5`)
    const second = await search(`${q}&limit=5&before=${first.ids.at(-1)}`)
    const third = await search(`${q}&limit=5&before=${second.ids.at(-1)}`)
    expect([...first.ids, ...second.ids, ...third.ids]).toEqual(newestFirst(onFifth))
  })
})

describe('paging', () => {
  test('?before= pages a search without overlap or gaps, newest first', async () => {
    const seen: number[] = []
    let before = ''
    for (;;) {
      const page = await search(`q=page.turner%40example.com&limit=100${before}`)
      expect(page.status).toBe(200)
      seen.push(...page.ids)
      if (page.ids.length < 100) break
      before = `&before=${page.ids.at(-1)}`
    }
    expect(seen).toEqual(newestFirst(turner))
  })

  test('a status filter pages the same way', async () => {
    const failed = newestFirst(turner.filter((_, index) => index % 5 === 0))
    const first = await search('status=failed&limit=30')
    const second = await search(`status=failed&limit=30&before=${first.ids.at(-1)}`)
    expect([...first.ids, ...second.ids]).toEqual(failed)
  })
})

describe('bad input', () => {
  test.each([
    ['q', 'x'.repeat(101), 'q must be at most 100 characters: an order number, an e-mail or a name.'],
    ['from', '2026-02-30', 'from must be a date like 2026-03-01.'],
    ['from', 'yesterday', 'from must be a date like 2026-03-01.'],
    ['to', '03/01/2026', 'to must be a date like 2026-03-01.'],
    ['to', '2026-3-1', 'to must be a date like 2026-03-01.'],
    [
      'status',
      'lost',
      'status must be one or more of pending, processing, label_created, shipped, failed, cancelled, refunded, separated by commas.',
    ],
  ])('?%s=%s is a 422 that says what is expected', async (field, value, message) => {
    for (const path of ['/api/orders', '/api/orders/export.csv']) {
      const res = await shop.call('GET', `${path}?${field}=${encodeURIComponent(value)}`, undefined, {
        cookie: staff.cookie,
      })
      expect([path, res.status, await res.json()]).toEqual([path, 422, { error: message }])
    }
  })

  test('from after to is a 422', async () => {
    const res = await search('from=2026-03-02&to=2026-03-01')
    expect([res.status, res.body]).toEqual([422, { error: 'from must be on or before to.' }])
    expect((await search('from=2026-03-01&to=2026-03-01')).status).toBe(200)
  })

  test('a customer is refused (403) and a visitor asked to sign in (401), before anything is searched', async () => {
    const customer = await signUp(shop)
    for (const path of ['/api/orders?q=dana', '/api/orders/export.csv?q=dana']) {
      const visitor = await shop.call('GET', path)
      expect([path, visitor.status]).toEqual([path, 401])
      const refused = await shop.call('GET', path, undefined, { cookie: customer.cookie })
      expect([path, refused.status]).toEqual([path, 403])
    }
  })
})

describe('plans', () => {
  /** What SQLite does for the statement the search runs with this plan. */
  async function planOf(criteria: OrderSearchCriteria, plan: SearchPlan, before?: number): Promise<string[]> {
    const statement = orderSearchQuery(shop.deps.db, criteria, { limit: 50, before }, plan).toSQL()
    const rows = await shop.deps.db.$client.execute({
      sql: `explain query plan ${statement.sql}`,
      args: statement.params as (string | number)[],
    })
    return rows.rows.map((row) => String(row.detail))
  }

  const criteria = (query: Record<string, string>) => orderCriteria(query, 'America/Chicago')

  test.each([
    ['a number', { q: '#000042' }, 'walk', 'SEARCH orders USING INTEGER PRIMARY KEY (rowid=?)'],
    [
      'an e-mail',
      { q: 'dana@example.com' },
      'text',
      'SEARCH orders USING COVERING INDEX orders_customer_key_idx (customer_key>? AND customer_key<?)',
    ],
    [
      'an e-mail with a status and days',
      { q: 'dana@example.com', status: 'shipped', from: '2026-02-01', to: '2026-02-28' },
      'text',
      'SEARCH orders USING INDEX orders_customer_key_idx (customer_key>? AND customer_key<?)',
    ],
    [
      'a name',
      { q: 'dana co' },
      'text',
      'SEARCH orders USING INDEX orders_customer_name_search_idx (<expr>>? AND <expr><?)',
    ],
    [
      'statuses and days',
      { status: 'shipped,failed', from: '2026-02-01', to: '2026-02-28' },
      'walk',
      'SEARCH orders USING INDEX orders_status_idx (status=? AND rowid>? AND rowid<?)',
    ],
    [
      'days',
      { from: '2026-02-01', to: '2026-02-28' },
      'walk',
      'SEARCH orders USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)',
    ],
    [
      'statuses',
      { status: 'failed,pending' },
      'walk',
      'SEARCH orders USING COVERING INDEX orders_status_idx (status=?)',
    ],
  ] as const)('%s: %s', async (_, query, plan, expected) => {
    const steps = await planOf(criteria(query), plan)
    expect(steps).toContain(expected)
    // Never the whole table: a scan of `orders` appears only as a walk by number, which stops at a page.
    expect(steps.filter((step) => step === 'SCAN orders')).toEqual([])
    // Days are found in the created_at index, one step each, never a range of it to sort.
    for (const step of steps.filter((line) => line.includes('orders_created_at_idx')))
      expect(step).toMatch(/^SEARCH bound USING COVERING INDEX orders_created_at_idx \(created_at[<>]\?\)$/)
  })

  test('a page of a status walks the status index below ?before=', async () => {
    expect(await planOf(criteria({ status: 'failed' }), 'walk', 100)).toContain(
      'SEARCH orders USING COVERING INDEX orders_status_idx (status=? AND rowid<?)',
    )
  })

  test('text most orders match is looked for on a walk by number, and finds the same orders', async () => {
    await insertOrders(
      shop,
      Array.from({ length: TEXT_MATCHES_TO_SORT + 10 }, (_, index) => ({
        name: `Common Name ${index}`,
        email: `common${index}@example.com`,
        status: index % 3 === 0 ? ('label_created' as const) : ('shipped' as const),
        createdAt: new Date(Date.parse('2026-03-24T00:00:00Z') + index * 1000),
      })),
    )
    const query = parseOrderQuery('common')
    const walk = await planOf({ query }, 'walk')
    expect(walk).toEqual([
      'SEARCH orders USING INTEGER PRIMARY KEY (rowid=?)',
      'LIST SUBQUERY 1',
      'SCAN orders',
    ])
    for (const extra of [{}, { statuses: ['label_created' as const] }]) {
      const both = await Promise.all(
        (['text', 'walk'] as const).map(async (plan) =>
          (await orderSearchQuery(shop.deps.db, { query, ...extra }, { limit: 50 }, plan)).map(
            (row) => row.id,
          ),
        ),
      )
      expect(both[0]).toHaveLength(50)
      expect(both[1]).toEqual(both[0] as number[])
    }
    // The call picks the walk for it, and pages it like any other.
    const first = await search('q=common&limit=100')
    const second = await search(`q=common&limit=100&before=${first.ids.at(-1)}`)
    expect(first.ids).toHaveLength(100)
    expect(new Set([...first.ids, ...second.ids]).size).toBe(200)
    expect([...first.ids, ...second.ids]).toEqual(newestFirst([...first.ids, ...second.ids]))
  })
})
