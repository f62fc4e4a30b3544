// Staff refund an order by lines or by an amount: never more than was paid less earlier refunds, one
// refund at the provider per refund the shop records (its id is the idempotency key), an e-mail, history
// lines, and status `refunded` once nothing is left.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { RefundResponse } from '@core/contracts/dashboard'
import { PaymentProviderError } from '../../../api/adapters/types'
import { onHand } from '../stock/helpers'
import { orderRow, payForOrder } from '../support/orders'
import { createRefundShop, json, providerRefunds, type RefundShop, refundRows } from './helpers'

setDefaultTimeout(60_000)

let r: RefundShop

beforeAll(async () => {
  r = await createRefundShop()
})
afterAll(() => {
  r.events.held = true
  r.shop.close()
})

/** A paid order of two lines (2 × product 1, 1 × product 2), its label bought. */
async function twoLineOrder() {
  const paid = await payForOrder(r.shop, {
    items: [
      { id: 1, quantity: 2 },
      { id: 2, quantity: 1 },
    ],
  })
  await r.shop.runDueJobs()
  const order = await orderRow(r.shop, paid.id)
  if (!order) throw new Error('no order')
  const detail = await json<{ lines: { id: number; quantity: number; paid: number }[] }>(
    await r.asStaff('GET', `/api/orders/${paid.id}`),
    200,
  )
  return { ...paid, order, lines: detail.lines }
}

const refundMails = (number: string) =>
  r.mailer.sent.filter((mail) => mail.subject.includes(number) && /refund/i.test(mail.subject))

describe('refund by lines and by amount', () => {
  test('one line refunded: its share of what was paid, made at the provider, an e-mail, a history line', async () => {
    const { id, sessionId, order, lines } = await twoLineOrder()
    const line = lines[0]
    if (!line) throw new Error('no line')
    const answer = await json<RefundResponse>(
      await r.asStaff('POST', `/api/orders/${id}/refunds`, {
        lines: [{ lineId: line.id, quantity: 1 }],
        restock: true,
        reason: 'Jar arrived cracked',
      }),
      201,
    )
    expect(answer.refund).toMatchObject({
      orderId: id,
      origin: 'refund',
      status: 'succeeded',
      amount: line.paid / 2,
      restock: true,
      reason: 'Jar arrived cracked',
      lines: [{ lineId: line.id, quantity: 1 }],
    })
    const atProvider = await providerRefunds(r.shop, sessionId)
    expect(atProvider).toHaveLength(1)
    expect(atProvider[0]).toMatchObject({
      amount: Math.round(line.paid * 50),
      idempotency_key: answer.refund.id,
    })
    // Something is left: the order keeps its status and shows what was refunded.
    const after = await json<{
      status: string
      refunded: number
      refundable: number
      history: { reason: string }[]
    }>(await r.asStaff('GET', `/api/orders/${id}`), 200)
    expect(after.status).toBe(order.status)
    expect(after.refunded).toBe(line.paid / 2)
    expect(after.refundable).toBeCloseTo(order.totalCents / 100 - line.paid / 2, 2)
    expect(after.history.some((entry) => entry.reason.startsWith('Refund of'))).toBe(true)
    await r.shop.runDueJobs()
    expect(refundMails(String(id).padStart(6, '0'))).toHaveLength(1)
  })

  test('the rest by amount: nothing left, status refunded; one cent more is a 409', async () => {
    const { id, order } = await twoLineOrder()
    const half = Math.floor(order.totalCents / 2)
    await json(
      await r.asStaff('POST', `/api/orders/${id}/refunds`, {
        amount: (half / 100).toFixed(2),
        restock: false,
      }),
      201,
    )
    const rest = order.totalCents - half
    const over = await r.asStaff('POST', `/api/orders/${id}/refunds`, {
      amount: ((rest + 1) / 100).toFixed(2),
      restock: false,
    })
    expect(over.status).toBe(409)
    expect((await over.json()).error).toContain('left to refund')
    await json(
      await r.asStaff('POST', `/api/orders/${id}/refunds`, {
        amount: (rest / 100).toFixed(2),
        restock: false,
      }),
      201,
    )
    expect((await orderRow(r.shop, id))?.status).toBe('refunded')
    const more = await r.asStaff('POST', `/api/orders/${id}/refunds`, { amount: '0.01', restock: false })
    expect(more.status).toBe(409)
    expect((await more.json()).error).toContain('nothing left to refund')
  })

  test('units already refunded cannot be refunded again (409)', async () => {
    const { id, lines } = await twoLineOrder()
    const line = lines[1]
    if (!line) throw new Error('no line')
    await json(
      await r.asStaff('POST', `/api/orders/${id}/refunds`, {
        lines: [{ lineId: line.id, quantity: 1 }],
        restock: false,
      }),
      201,
    )
    const again = await r.asStaff('POST', `/api/orders/${id}/refunds`, {
      lines: [{ lineId: line.id, quantity: 1 }],
      restock: false,
    })
    expect(again.status).toBe(409)
  })
})

describe('what a refund leaves behind', () => {
  test('a restocking refund puts its units back on the shelf once it is made; the other leaves them sold', async () => {
    // Counted stock of the first scent of both products the order takes (a line without a scent is the first).
    await json(
      await r.asStaff('PATCH', '/api/products/1/stock', { variants: { 'Hammered Citrus': 10 } }),
      200,
    )
    await json(
      await r.asStaff('PATCH', '/api/products/2/stock', { variants: { 'Barrel & Timber': 10 } }),
      200,
    )
    const { id, lines } = await twoLineOrder()
    const [first, second] = lines
    if (!first || !second) throw new Error('no lines')
    expect([await onHand(r.shop, 1, 'Hammered Citrus'), await onHand(r.shop, 2, 'Barrel & Timber')]).toEqual([
      8, 9,
    ])
    await json(
      await r.asStaff('POST', `/api/orders/${id}/refunds`, {
        lines: [{ lineId: first.id, quantity: 2 }],
        restock: true,
      }),
      201,
    )
    await json(
      await r.asStaff('POST', `/api/orders/${id}/refunds`, {
        lines: [{ lineId: second.id, quantity: 1 }],
        restock: false,
      }),
      201,
    )
    const rows = await refundRows(r.shop, id)
    expect(rows.map((row) => [row.restock, row.restockedAt !== null]).sort()).toEqual([
      [false, false],
      [true, true],
    ])
    expect([await onHand(r.shop, 1, 'Hammered Citrus'), await onHand(r.shop, 2, 'Barrel & Timber')]).toEqual([
      10, 9,
    ])
    // The provider's news of the same refund again moves nothing more.
    await r.shop.runDueJobs()
    expect(await onHand(r.shop, 1, 'Hammered Citrus')).toBe(10)
    const detail = await json<{ lines: { id: number; refundedQuantity: number }[] }>(
      await r.asStaff('GET', `/api/orders/${id}`),
      200,
    )
    expect(detail.lines.map((line) => line.refundedQuantity)).toEqual([2, 1])
    await json(
      await r.asStaff('PATCH', '/api/products/1/stock', { variants: { 'Hammered Citrus': null } }),
      200,
    )
    await json(
      await r.asStaff('PATCH', '/api/products/2/stock', { variants: { 'Barrel & Timber': null } }),
      200,
    )
  })

  test("the accountant's CSV reads the order's refunds in its refunded column", async () => {
    const email = `csv.${Date.now()}@example.com`
    const { id } = await payForOrder(r.shop, { email })
    await json(await r.asStaff('POST', `/api/orders/${id}/refunds`, { amount: '2.50', restock: false }), 201)
    const res = await r.asStaff('GET', `/api/orders/export.csv?q=${encodeURIComponent(email)}`)
    expect(res.status).toBe(200)
    const rows = (await res.text())
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')
    const header = rows[0]?.split(',') ?? []
    const cells = rows[1]?.split(',') ?? []
    expect(cells[header.indexOf('refunded')]).toBe('2.50')
  })
})

describe('a lost answer from the provider', () => {
  test('the refund stays asked, and the retry finds the refund made under its key: refunded once', async () => {
    const { id, sessionId } = await twoLineOrder()
    const refund = r.demo.refund
    const findRefund = r.demo.findRefund
    let looked = 0
    // The provider makes the refund, and its answer is lost on the way back; its events about the refund
    // are late too (were they first, they would settle the refund before the retry asks).
    r.events.held = true
    r.demo.refund = async (request) => {
      r.demo.refund = refund
      await refund(request)
      throw new PaymentProviderError('connection reset')
    }
    r.demo.findRefund = async (paymentRef, key) => {
      looked += 1
      return findRefund(paymentRef, key)
    }
    try {
      const answer = await json<RefundResponse>(
        await r.asStaff('POST', `/api/orders/${id}/refunds`, { amount: '3.00', restock: false }),
        201,
      )
      expect(answer.refund.status).toBe('requested')
      expect(answer.message).toContain('has not answered yet')
      // Days later (past the provider's 24 hours for keys), the job runs again and asks by the key first.
      r.shop.clock.advance(2 * 24 * 60 * 60 * 1000)
      await r.shop.runDueJobs()
    } finally {
      r.demo.findRefund = findRefund
      r.events.held = false
    }
    expect(looked).toBeGreaterThan(0)
    // The late events change nothing more.
    await r.events.deliver()
    expect(await providerRefunds(r.shop, sessionId)).toHaveLength(1)
    expect((await refundRows(r.shop, id)).map((row) => row.status)).toEqual(['succeeded'])
  })
})

describe('idempotency and races', () => {
  test('the same Idempotency-Key returns the same refund; another body under it is a 409', async () => {
    const { id, sessionId } = await twoLineOrder()
    const headers = { 'idempotency-key': `refund-${id}-a` }
    const first = await json<RefundResponse>(
      await r.asStaff('POST', `/api/orders/${id}/refunds`, { amount: '1.00', restock: false }, headers),
      201,
    )
    const second = await json<RefundResponse>(
      await r.asStaff('POST', `/api/orders/${id}/refunds`, { amount: '1.00', restock: false }, headers),
      201,
    )
    expect(second.refund.id).toBe(first.refund.id)
    const other = await r.asStaff(
      'POST',
      `/api/orders/${id}/refunds`,
      { amount: '2.00', restock: false },
      headers,
    )
    expect(other.status).toBe(409)
    expect(await providerRefunds(r.shop, sessionId)).toHaveLength(1)
    expect(await refundRows(r.shop, id)).toHaveLength(1)
  })

  test('20 parallel refunds of the whole amount: one refund at the provider, one recorded', async () => {
    const { id, sessionId, order } = await twoLineOrder()
    const amount = (order.totalCents / 100).toFixed(2)
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        r.asStaff('POST', `/api/orders/${id}/refunds`, { amount, restock: false }),
      ),
    )
    const statuses = answers.map((res) => res.status)
    expect(statuses.filter((status) => status === 201)).toHaveLength(1)
    expect(statuses.filter((status) => status !== 201).every((status) => status === 409)).toBe(true)
    expect(await providerRefunds(r.shop, sessionId)).toHaveLength(1)
    expect(await refundRows(r.shop, id)).toHaveLength(1)
    expect((await orderRow(r.shop, id))?.status).toBe('refunded')
  })
})

describe('bad input', () => {
  test.each([
    ['neither lines nor amount', { restock: false }],
    ['both lines and amount', { lines: [{ lineId: 1, quantity: 1 }], amount: '1.00', restock: false }],
    ['no restock', { amount: '1.00' }],
    ['amount zero', { amount: '0.00', restock: false }],
    ['amount negative', { amount: '-1.00', restock: false }],
    ['amount not money', { amount: 'ten', restock: false }],
    ['quantity zero', { lines: [{ lineId: 1, quantity: 0 }], restock: false }],
    ['empty lines', { lines: [], restock: false }],
    ['reason not text', { amount: '1.00', restock: false, reason: 5 }],
  ])('%s is a 422', async (_name, body) => {
    const { id } = await twoLineOrder()
    const res = await r.asStaff('POST', `/api/orders/${id}/refunds`, body)
    expect(res.status).toBe(422)
    expect(typeof (await res.json()).error).toBe('string')
    expect(await refundRows(r.shop, id)).toHaveLength(0)
  })

  test('a line of another order, or more units than the line has, is a 422', async () => {
    const a = await twoLineOrder()
    const b = await twoLineOrder()
    const foreign = b.lines[0]
    const own = a.lines[0]
    if (!foreign || !own) throw new Error('no line')
    const res = await r.asStaff('POST', `/api/orders/${a.id}/refunds`, {
      lines: [{ lineId: foreign.id, quantity: 1 }],
      restock: false,
    })
    expect(res.status).toBe(422)
    const many = await r.asStaff('POST', `/api/orders/${a.id}/refunds`, {
      lines: [{ lineId: own.id, quantity: 3 }],
      restock: false,
    })
    expect(many.status).toBe(422)
  })

  test('an unknown order is a 404; a customer gets 403', async () => {
    expect(
      (await r.asStaff('POST', '/api/orders/999999/refunds', { amount: '1.00', restock: false })).status,
    ).toBe(404)
    const { id } = await twoLineOrder()
    expect(
      (await r.shop.call('POST', `/api/orders/${id}/refunds`, { amount: '1.00', restock: false })).status,
    ).toBe(401)
  })
})
