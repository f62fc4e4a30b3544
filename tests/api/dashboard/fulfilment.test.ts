// The dashboard's fulfilment day: failed orders retried once however often Retry is pressed, labels opened
// through the app, orders marked shipped with one e-mail, every move kept in the order's history.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { pathToFileURL } from 'node:url'
import { eq } from 'drizzle-orm'
import { jobs } from '../../../db/schema/jobs'
import { orders } from '../../../db/schema/orders'
import type { Customer } from '../support/accounts'
import { memoryMailer, orderRow, paidOrder, switchableCarrier } from '../support/orders'
import { createTestApp, type TestApp } from '../support/test-app'
import { staffMember } from './helpers'

setDefaultTimeout(60_000)

let shop: TestApp
let carrier: ReturnType<typeof switchableCarrier>
let mailer: ReturnType<typeof memoryMailer>
let staff: Customer
let colleague: Customer

beforeAll(async () => {
  shop = await createTestApp({ TRUST_PROXY: 'true' }, (base) => {
    carrier = switchableCarrier(base.shipping)
    mailer = memoryMailer()
    return { shipping: carrier.provider, mailer }
  })
  staff = await staffMember(shop)
  colleague = await staffMember(shop)
})
afterAll(() => shop.close())

function asStaff(method: string, path: string, body?: unknown, who: Customer = staff): Promise<Response> {
  return shop.call(method, path, body, { cookie: who.cookie })
}

/** Runs the label job's attempts until the carrier's refusal is final and the order is failed. */
async function failedOrder(options: Parameters<typeof paidOrder>[1] = {}): Promise<number> {
  carrier.state.failing = true
  const id = await paidOrder(shop, options)
  for (let attempt = 0; attempt < 8 && (await orderRow(shop, id))?.status !== 'failed'; attempt++) {
    await shop.runDueJobs()
    shop.clock.advance(2 * 60 * 60 * 1000)
  }
  carrier.state.failing = false
  expect((await orderRow(shop, id))?.status).toBe('failed')
  return id
}

async function labelledOrder(options: Parameters<typeof paidOrder>[1] = {}): Promise<number> {
  const id = await paidOrder(shop, options)
  await shop.runDueJobs()
  expect((await orderRow(shop, id))?.status).toBe('label_created')
  return id
}

const shippedMails = (id: number) =>
  mailer.sent.filter((mail) => mail.subject.includes(`${String(id).padStart(6, '0')} has shipped`))

describe('retry', () => {
  test('a failed order shows why; Retry buys its label and the order reads LABEL CREATED', async () => {
    const id = await failedOrder()
    const listed = (await (await asStaff('GET', '/api/orders')).json()) as Record<string, unknown>[]
    expect(listed.find((order) => order.id === id)).toMatchObject({
      status: 'failed',
      failureReason: 'The carrier refused the address',
      labelUrl: null,
    })
    const res = await asStaff('POST', `/api/orders/${id}/retry`)
    expect(res.status).toBe(200)
    const answer = await res.json()
    expect(answer.message).toContain(`Order ${String(id).padStart(6, '0')} is being processed again`)
    expect(answer.order).toMatchObject({ id, status: 'processing' })
    await shop.runDueJobs()
    expect(await orderRow(shop, id)).toMatchObject({ status: 'label_created', failureReason: null })
  })

  test('two staff pressing Retry at once buy one label', async () => {
    const id = await failedOrder()
    const before = carrier.state.bought.length
    const answers = await Promise.all([
      asStaff('POST', `/api/orders/${id}/retry`),
      asStaff('POST', `/api/orders/${id}/retry`, undefined, colleague),
      asStaff('POST', `/api/orders/${id}/retry`),
    ])
    expect(answers.map((res) => res.status).sort()).toEqual([200, 409, 409])
    await Promise.all([shop.runDueJobs(), shop.runDueJobs()])
    await shop.runDueJobs()
    expect(carrier.state.bought.length - before).toBe(1)
    const labelJobs = await shop.deps.db.select().from(jobs).where(eq(jobs.type, 'purchase-label'))
    // The order's first label job (failed for good) and one from the Retry that won.
    expect(labelJobs.filter((job) => job.payload === JSON.stringify({ orderId: id }))).toHaveLength(2)
    expect((await orderRow(shop, id))?.status).toBe('label_created')
  })

  test('an order that is not failed answers 409 with the reason; unknown orders 404', async () => {
    const id = await labelledOrder()
    const res = await asStaff('POST', `/api/orders/${id}/retry`)
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({
      error: `Order ${String(id).padStart(6, '0')} is LABEL CREATED: only a FAILED order can be retried.`,
    })
    for (const path of ['/api/orders/999999/retry', '/api/orders/abc/retry', '/api/orders/0/retry']) {
      const missing = await asStaff('POST', path)
      expect([path, missing.status]).toEqual([path, 404])
      expect(await missing.json()).toEqual({ error: 'Order not found.' })
    }
  })
})

describe('mark shipped', () => {
  test('pressed twice (and by two people at once) it ships once and e-mails the customer once', async () => {
    const id = await labelledOrder({ email: 'casey@example.com' })
    const row = await orderRow(shop, id)
    const answers = await Promise.all([
      asStaff('POST', `/api/orders/${id}/ship`),
      asStaff('POST', `/api/orders/${id}/ship`, undefined, colleague),
    ])
    expect(answers.map((res) => res.status).sort()).toEqual([200, 409])
    const again = await asStaff('POST', `/api/orders/${id}/ship`)
    expect(again.status).toBe(409)
    expect((await again.json()).error).toBe(`Order ${String(id).padStart(6, '0')} is already marked shipped.`)
    await shop.runDueJobs()
    await shop.runDueJobs()
    const mails = shippedMails(id)
    expect(mails).toHaveLength(1)
    expect(mails[0]?.to).toBe('casey@example.com')
    expect(mails[0]?.text).toContain('Carrier: USPS (USPS Priority Mail)')
    expect(mails[0]?.text).toContain(`Tracking number: ${row?.shippoTrackingNumber}`)
    expect(mails[0]?.html).toContain(row?.shippoTrackingNumber ?? 'missing')
    expect((await orderRow(shop, id))?.status).toBe('shipped')
  })

  test('only a labelled order can be marked shipped; nothing is e-mailed otherwise', async () => {
    const id = await failedOrder()
    const res = await asStaff('POST', `/api/orders/${id}/ship`)
    expect(res.status).toBe(409)
    expect((await res.json()).error).toBe(
      `Order ${String(id).padStart(6, '0')} is FAILED: only an order with a label (LABEL CREATED) can be marked shipped.`,
    )
    await shop.runDueJobs()
    expect(shippedMails(id)).toHaveLength(0)
    // Once it has its label, shipping works and the e-mail was not used up by the refused attempt.
    await asStaff('POST', `/api/orders/${id}/retry`)
    await shop.runDueJobs()
    expect((await asStaff('POST', `/api/orders/${id}/ship`)).status).toBe(200)
    await shop.runDueJobs()
    expect(shippedMails(id)).toHaveLength(1)
    expect((await asStaff('POST', '/api/orders/424242/ship')).status).toBe(404)
  })

  test('markup in a customer name is data in the dashboard answer and text in the shipping e-mail', async () => {
    const name = '<img src=x onerror=alert(1)> Dana'
    const id = await labelledOrder({ name })
    const listed = await asStaff('GET', '/api/orders')
    expect(listed.headers.get('content-type')).toContain('application/json')
    const order = ((await listed.json()) as Record<string, unknown>[]).find((o) => o.id === id)
    expect(order?.customerName).toBe(name)
    const detail = await (await asStaff('GET', `/api/orders/${id}`)).json()
    expect(detail.shippingAddress.name).toBe(name)

    await asStaff('POST', `/api/orders/${id}/ship`)
    await shop.runDueJobs()
    const [mail] = shippedMails(id)
    expect(mail?.html).not.toContain('<img')
    expect(mail?.html).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(mail?.text).toContain(name)
  })
})

describe('labels', () => {
  test('staff open the built-in carrier’s PDF through the app; no answer carries a file:// address', async () => {
    const id = await labelledOrder()
    expect((await orderRow(shop, id))?.labelUrl).toStartWith('file://')
    const list = await (await asStaff('GET', '/api/orders')).text()
    const detail = await (await asStaff('GET', `/api/orders/${id}`)).text()
    expect(list).not.toContain('file:')
    expect(detail).not.toContain('file:')
    expect(JSON.parse(detail).labelUrl).toBe(`/api/orders/${id}/label`)

    const res = await asStaff('GET', `/api/orders/${id}/label`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/pdf')
    expect(res.headers.get('content-disposition')).toBe(
      `inline; filename="label-${String(id).padStart(6, '0')}.pdf"`,
    )
    const pdf = await res.text()
    expect(pdf.startsWith('%PDF-')).toBe(true)
    expect(pdf).toContain(`Order ${String(id).padStart(6, '0')}`)
  })

  test('an order without a label, or whose stored label points outside the labels folder, has none', async () => {
    const failedId = await failedOrder()
    expect((await asStaff('GET', `/api/orders/${failedId}/label`)).status).toBe(404)
    const id = await labelledOrder()
    for (const tampered of [
      pathToFileURL('/etc/passwd').href,
      pathToFileURL(`${shop.deps.config.dataDir}/labels/../shop.db`).href,
      'http://example.com/label.pdf',
      'javascript:alert(1)',
    ]) {
      await shop.deps.db.update(orders).set({ labelUrl: tampered }).where(eq(orders.id, id))
      const res = await asStaff('GET', `/api/orders/${id}/label`)
      expect([tampered, res.status]).toEqual([tampered, 404])
    }
    expect((await asStaff('GET', '/api/orders/abc/label')).status).toBe(404)
  })
})

describe('order detail and history', () => {
  test('lines, addresses, totals, and every move with who made it', async () => {
    const id = await failedOrder({ items: [{ id: 3, quantity: 2 }], email: 'history@example.com' })
    await asStaff('POST', `/api/orders/${id}/retry`)
    await shop.runDueJobs()
    await asStaff('POST', `/api/orders/${id}/ship`, undefined, colleague)
    const res = await asStaff('GET', `/api/orders/${id}`)
    expect(res.status).toBe(200)
    const detail = await res.json()
    expect(detail).toMatchObject({
      id,
      number: String(id).padStart(6, '0'),
      customerEmail: 'history@example.com',
      itemCount: 2,
      packageType: 'small',
      packageDimensions: { width: 4.25, length: 7, height: 1 },
      status: 'shipped',
      shippingAddress: { name: 'Dana Cole', city: 'San Francisco', state: 'CA' },
      billingAddress: { zip: '94107' },
    })
    expect(detail.lines).toHaveLength(1)
    expect(detail.lines[0]).toMatchObject({ productId: 3, quantity: 2 })
    expect(detail.subtotal + detail.shipping - detail.discount).toBeCloseTo(detail.totalAmount, 2)
    expect(
      detail.history.map((entry: Record<string, string>) => [entry.from, entry.to, entry.actorName]),
    ).toEqual([
      [null, 'pending', 'System'],
      ['pending', 'processing', 'System'],
      ['processing', 'failed', 'System'],
      ['failed', 'processing', staff.email],
      ['processing', 'label_created', 'System'],
      ['label_created', 'shipped', colleague.email],
    ])
    expect(detail.history[2].reason).toContain('The carrier refused the address')
    expect(detail.history[3].actor).toBe(staff.id)
    expect(detail.history[4].reason).toMatch(/^Label bought: USPS \d{22}$/)
    expect(new Date(detail.history[5].at).getTime()).toBe(shop.clock.now().getTime())
  })

  test('an unknown order has no detail', async () => {
    expect((await asStaff('GET', '/api/orders/999999')).status).toBe(404)
    expect((await asStaff('GET', '/api/orders/abc')).status).toBe(404)
  })
})
