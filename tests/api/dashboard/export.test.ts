// GET /api/orders/export.csv: the orders the dashboard's filters find, as CSV for the accountant: the
// columns and their formats, quoting, cells a spreadsheet would run as formulas, the same filters as the
// list, and a body streamed a page at a time however many orders there are.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { EXPORT_PAGE_SIZE, ordersCsv } from '../../../api/modules/dashboard/export'
import { createOrderSearch } from '../../../api/modules/orders/search'
import type { Customer } from '../support/accounts'
import { insertOrders } from '../support/bulk-orders'
import { orderRow, paidOrder } from '../support/orders'
import { createTestApp, type TestApp } from '../support/test-app'
import { staffMember } from './helpers'

setDefaultTimeout(60_000)

const HEADER = 'number,date,customer,e-mail,items,subtotal,discount,shipping,total,refunded,status'

let shop: TestApp
let staff: Customer
let paid: number
let hostile: number[] = []
/** Orders of one customer spread over many pages of the export. */
let many: number[] = []

beforeAll(async () => {
  shop = await createTestApp({ TRUST_PROXY: 'true' })
  staff = await staffMember(shop)
  // 09:00 in Chicago on February 27th (UTC-6).
  shop.clock.set(new Date('2026-02-27T15:00:00Z'))
  paid = await paidOrder(shop, {
    name: 'Dana Cole',
    email: 'dana.cole@example.com',
    items: [
      { id: 1, quantity: 2 },
      { id: 4, quantity: 1 },
    ],
  })
  hostile = await insertOrders(
    shop,
    [
      '=HYPERLINK("http://evil.example","Click")',
      '+1+1',
      '-2+3',
      '@SUM(A1:A2)',
      '\tTabbed',
      'Cole, Dana "The Beard"',
      'Line\nBreak',
    ].map((name, index) => ({
      name,
      email: `hostile${index}@example.com`,
      createdAt: new Date(Date.parse('2026-02-28T15:00:00Z') + index * 60_000),
    })),
  )
  many = await insertOrders(
    shop,
    Array.from({ length: EXPORT_PAGE_SIZE * 2 + 234 }, (_, index) => ({
      name: 'Bulk Buyer',
      email: 'bulk.buyer@example.com',
      status: index % 2 === 0 ? ('shipped' as const) : ('label_created' as const),
      subtotalCents: 1000 + index,
      discountCents: 150,
      shippingCents: 795,
      itemCount: 1 + (index % 4),
      createdAt: new Date(Date.parse('2026-03-01T12:00:00Z') + index * 60_000),
    })),
  )
  shop.clock.set(new Date('2026-03-10T15:00:00Z'))
})
afterAll(() => shop.close())

function download(query = ''): Promise<Response> {
  return shop.call('GET', `/api/orders/export.csv${query}`, undefined, { cookie: staff.cookie })
}

/** The file as bytes decoded, its byte-order mark kept (Response.text() drops it). */
async function fileText(res: Response): Promise<string> {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer())
}

/** The file's rows as fields, after its byte-order mark (a small RFC 4180 reader: quotes, doubled quotes). */
function parseCsv(text: string): string[][] {
  expect(text.startsWith('\uFEFF')).toBe(true)
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  const body = text.slice(1)
  for (let i = 0; i < body.length; i++) {
    const char = body[i]
    if (quoted) {
      if (char === '"' && body[i + 1] === '"') {
        field += '"'
        i++
      } else if (char === '"') quoted = false
      else field += char
    } else if (char === '"') quoted = true
    else if (char === ',') {
      row.push(field)
      field = ''
    } else if (char === '\r' && body[i + 1] === '\n') {
      row.push(field)
      rows.push(row)
      row = []
      field = ''
      i++
    } else field += char
  }
  expect(field).toBe('')
  return rows
}

describe('the file', () => {
  test('is CSV to download, named for the day, never cached', async () => {
    const res = await download()
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="orders-2026-03-10.csv"')
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    const text = await fileText(res)
    expect(text.startsWith(`\uFEFF${HEADER}\r\n`)).toBe(true)
  })

  test("a paid order's row: padded number, the shop's time with its offset, money in dollars and cents", async () => {
    const order = await orderRow(shop, paid)
    if (!order) throw new Error('no order')
    const rows = parseCsv(await fileText(await download('?q=dana.cole%40example.com')))
    const dollars = (cents: number) => (cents / 100).toFixed(2)
    expect(rows).toEqual([
      HEADER.split(','),
      [
        String(paid).padStart(6, '0'),
        '2026-02-27T09:00:00-06:00',
        'Dana Cole',
        'dana.cole@example.com',
        '3',
        dollars(order.subtotalCents),
        dollars(order.discountCents),
        dollars(order.shippingCents),
        dollars(order.totalCents),
        '0.00',
        'pending',
      ],
    ])
    expect(dollars(order.totalCents)).toMatch(/^\d+\.\d\d$/)
  })

  test('the time follows daylight saving: -05:00 in summer in Chicago', async () => {
    const [summer] = await insertOrders(shop, [
      { name: 'Summer Sale', email: 'summer@example.com', createdAt: new Date('2026-03-10T14:00:00Z') },
    ])
    const rows = parseCsv(await fileText(await download(`?q=${summer}`)))
    expect(rows[1]?.[1]).toBe('2026-03-10T09:00:00-05:00')
  })

  test('cells a spreadsheet would run as formulas start with an apostrophe; quotes are doubled', async () => {
    const text = await fileText(await download('?q=hostile'))
    const names = parseCsv(text)
      .slice(1)
      .map((row) => row[2])
    expect(names).toEqual(
      [
        '=HYPERLINK("http://evil.example","Click")',
        '+1+1',
        '-2+3',
        '@SUM(A1:A2)',
        '\tTabbed',
        'Cole, Dana "The Beard"',
        'Line\nBreak',
      ]
        .map((name) => (/^[=+\-@\t]/.test(name) ? `'${name}` : name))
        .reverse(),
    )
    // As written in the file: quoted where needed, every quote doubled.
    expect(text).toContain(`,"'=HYPERLINK(""http://evil.example"",""Click"")",`)
    expect(text).toContain(`,"Cole, Dana ""The Beard""",`)
    expect(text).toContain(`,'+1+1,`)
    expect(text).not.toMatch(/,[=+\-@]/)
  })
})

describe('filters', () => {
  test('the same as the orders list: text, statuses and days', async () => {
    for (const query of [
      'q=bulk.buyer%40example.com&status=label_created&limit=100',
      'q=hostile',
      'status=pending',
      'from=2026-02-28&to=2026-02-28',
      'q=bulk&from=2026-03-01&to=2026-03-01&status=shipped&limit=100',
    ]) {
      const list = (await (
        await shop.call('GET', `/api/orders?${query}`, undefined, { cookie: staff.cookie })
      ).json()) as { number: string }[]
      const rows = parseCsv(await fileText(await download(`?${query.replace(/&limit=\d+/, '')}`)))
      const numbers = rows.slice(1).map((row) => row[0])
      expect([query, numbers.slice(0, list.length)]).toEqual([query, list.map((order) => order.number)])
      if (list.length < 100) expect(numbers).toHaveLength(list.length)
    }
  })

  test('every status, newest first, when nothing is asked', async () => {
    const rows = parseCsv(await fileText(await download()))
    expect(rows).toHaveLength(1 + 1 + hostile.length + many.length + 1)
    const numbers = rows.slice(1).map((row) => Number(row[0]))
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a))
  })
})

describe('streaming', () => {
  test(`${EXPORT_PAGE_SIZE * 2 + 234} orders arrive whole and in order, a page of rows at a time`, async () => {
    const res = await download('?q=bulk.buyer%40example.com')
    const reader = res.body?.getReader()
    if (!reader) throw new Error('no body')
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true })
    const chunks: string[] = []
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(decoder.decode(value, { stream: true }))
    }
    const rowsPerChunk = chunks.map((chunk) => chunk.split('\r\n').length - 1)
    // The header alone, then pages of orders: never more rows at once than one page.
    expect(rowsPerChunk[0]).toBe(1)
    expect(Math.max(...rowsPerChunk.slice(1))).toBe(EXPORT_PAGE_SIZE)
    expect(rowsPerChunk.slice(1).reduce((sum, n) => sum + n, 0)).toBe(many.length)
    const rows = parseCsv(chunks.join(''))
    expect(rows.slice(1).map((row) => Number(row[0]))).toEqual([...many].reverse())
    const first = rows.at(-1)
    expect(first?.slice(4)).toEqual(['1', '10.00', '1.50', '7.95', '16.45', '0.00', 'shipped'])
  })

  test('reads the orders as the client takes them, not ahead', async () => {
    const search = createOrderSearch({ db: shop.deps.db })
    const reads: number[] = []
    const counting = {
      ...search,
      async page(...args: Parameters<typeof search.page>) {
        const rows = await search.page(...args)
        reads.push(rows.length)
        return rows
      },
    }
    const stream = ordersCsv(
      counting,
      { query: { kind: 'email', text: 'bulk.buyer@example.com' } },
      'America/Chicago',
    )
    const reader = stream.getReader()
    await reader.read()
    await reader.read()
    await Bun.sleep(50)
    // The header and one page taken: one page read, nothing more in memory.
    expect(reads).toEqual([EXPORT_PAGE_SIZE])
    await reader.cancel()
    await Bun.sleep(50)
    expect(reads).toEqual([EXPORT_PAGE_SIZE])
  })
})
