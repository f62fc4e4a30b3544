// Staff cancel an order that has not shipped: a full refund of what is left, the label voided, the
// discount's use released, status cancelled, one e-mail, a history line; 409 when shipped or cancelled.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { PaymentProviderError } from '../../../api/adapters/types'
import { discountRedemptions } from '../../../db/schema/discounts'
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

const number = (id: number) => String(id).padStart(6, '0')
const cancelMails = (id: number) =>
  r.mailer.sent.filter((mail) => mail.subject.includes(`${number(id)} is cancelled`))

describe('cancel', () => {
  test('a labelled order: refunded in full, label voided, units back, status cancelled, one e-mail, history', async () => {
    await json(
      await r.asStaff('PATCH', '/api/products/1/stock', { variants: { 'Hammered Citrus': 10 } }),
      200,
    )
    const { id, sessionId } = await payForOrder(r.shop)
    await r.shop.runDueJobs()
    const sold = await onHand(r.shop, 1, 'Hammered Citrus')
    const before = await orderRow(r.shop, id)
    expect(before?.status).toBe('label_created')
    const answer = await json<{ message: string; order: { status: string } }>(
      await r.asStaff('POST', `/api/orders/${id}/cancel`, { reason: 'Customer changed their mind' }),
      200,
    )
    expect(answer.order.status).toBe('cancelled')
    expect(answer.message).toContain('is cancelled')
    const atProvider = await providerRefunds(r.shop, sessionId)
    expect(atProvider.map((refund) => refund.amount)).toEqual([before?.totalCents ?? -1])
    expect((await refundRows(r.shop, id)).map((row) => [row.origin, row.status])).toEqual([
      ['cancel', 'succeeded'],
    ])
    await r.shop.runDueJobs()
    await r.shop.runDueJobs()
    expect(r.voids.map((label) => label.trackingNumber)).toContain(before?.shippoTrackingNumber ?? 'none')
    expect((await orderRow(r.shop, id))?.labelVoidStatus).not.toBeNull()
    expect(cancelMails(id)).toHaveLength(1)
    // Every unit the order took is back on the shelf, once.
    expect(sold).toBeLessThan(10)
    expect(await onHand(r.shop, 1, 'Hammered Citrus')).toBe(10)
    await json(
      await r.asStaff('PATCH', '/api/products/1/stock', { variants: { 'Hammered Citrus': null } }),
      200,
    )
    const detail = await json<{
      status: string
      history: { to: string; reason: string }[]
      cancellable: boolean
    }>(await r.asStaff('GET', `/api/orders/${id}`), 200)
    expect(detail.status).toBe('cancelled')
    expect(detail.cancellable).toBe(false)
    expect(
      detail.history.some(
        (entry) => entry.to === 'cancelled' && entry.reason.includes('Customer changed their mind'),
      ),
    ).toBe(true)
  })

  test('a cancelled order again, or a shipped one, is a 409 with the reason', async () => {
    const { id } = await payForOrder(r.shop)
    await r.shop.runDueJobs()
    await json(await r.asStaff('POST', `/api/orders/${id}/cancel`), 200)
    const again = await r.asStaff('POST', `/api/orders/${id}/cancel`)
    expect(again.status).toBe(409)
    expect((await again.json()).error).toContain('already cancelled')

    const shipped = await payForOrder(r.shop)
    await r.shop.runDueJobs()
    expect((await r.asStaff('POST', `/api/orders/${shipped.id}/ship`)).status).toBe(200)
    const res = await r.asStaff('POST', `/api/orders/${shipped.id}/cancel`)
    expect(res.status).toBe(409)
    expect((await res.json()).error).toContain('has shipped')
    expect(await refundRows(r.shop, shipped.id)).toHaveLength(0)
  })

  test('a cancel whose body is not JSON is refused (400) and cancels nothing; an empty body is no reason', async () => {
    const { id } = await payForOrder(r.shop)
    // Cut off mid-way: read as no body at all, it would cancel and refund without the reason.
    const res = await r.asStaff('POST', `/api/orders/${id}/cancel`, '{"reason": "customer asked", ')
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error: 'The request body is not valid JSON.' })
    expect((await orderRow(r.shop, id))?.status).toBe('pending')
    expect(await refundRows(r.shop, id)).toHaveLength(0)
    const empty = await r.asStaff('POST', `/api/orders/${id}/cancel`, '', {
      'content-type': 'application/json',
    })
    expect((await json<{ order: { status: string } }>(empty, 200)).order.status).toBe('cancelled')
  })

  test('a cancel whose refund the provider has not answered yet says so, not that it is refunded', async () => {
    const { id } = await payForOrder(r.shop)
    const made = r.demo.refund
    r.demo.refund = async () => {
      throw new PaymentProviderError('connection reset')
    }
    try {
      const answer = await json<{ message: string }>(
        await r.asStaff('POST', `/api/orders/${id}/cancel`, {}),
        200,
      )
      expect((await refundRows(r.shop, id)).map((row) => row.status)).toEqual(['requested'])
      expect(answer.message).toContain(
        'the payment provider has not answered yet, so it is asked again shortly.',
      )
      expect(answer.message).not.toContain("is refunded to the customer's card")
    } finally {
      r.demo.refund = made
    }
  })

  test('after a partial refund, cancel refunds only what is left', async () => {
    const { id, sessionId } = await payForOrder(r.shop)
    const total = (await orderRow(r.shop, id))?.totalCents ?? 0
    await json(await r.asStaff('POST', `/api/orders/${id}/refunds`, { amount: '1.00', restock: false }), 201)
    await json(await r.asStaff('POST', `/api/orders/${id}/cancel`), 200)
    const amounts = (await providerRefunds(r.shop, sessionId))
      .map((refund) => refund.amount)
      .sort((a, b) => a - b)
    expect(amounts).toEqual([100, total - 100].sort((a, b) => a - b))
  })

  test('a cancel puts back the units no refund decided about: a broken jar refunded without restock stays off', async () => {
    const REPAIR = 4 // Workforce Repair Original Grit: no scents
    await json(await r.asStaff('PATCH', `/api/products/${REPAIR}/stock`, { stock: 10 }), 200)
    try {
      const { id } = await payForOrder(r.shop, { items: [{ id: REPAIR, quantity: 3 }] })
      expect(await onHand(r.shop, REPAIR, '')).toBe(7)
      const detail = await json<{ lines: { id: number }[] }>(await r.asStaff('GET', `/api/orders/${id}`), 200)
      const lineId = detail.lines[0]?.id ?? 0
      // One jar broke on the shelf before packing: refunded, not put back. Another is returned to the shelf.
      const refund = (restock: boolean) =>
        r.asStaff('POST', `/api/orders/${id}/refunds`, { lines: [{ lineId, quantity: 1 }], restock })
      await json(await refund(false), 201)
      await json(await refund(true), 201)
      await r.events.deliver()
      expect(await onHand(r.shop, REPAIR, '')).toBe(8)
      // The customer cancels the rest: only the jar nobody decided about comes back.
      await json(await r.asStaff('POST', `/api/orders/${id}/cancel`), 200)
      expect(await onHand(r.shop, REPAIR, '')).toBe(9)
    } finally {
      await json(await r.asStaff('PATCH', `/api/products/${REPAIR}/stock`, { stock: null }), 200)
    }
  })

  test('a unit refunded again after its refund failed is one unit: put back once, kept off once', async () => {
    const REPAIR = 4
    await json(await r.asStaff('PATCH', `/api/products/${REPAIR}/stock`, { stock: 10 }), 200)
    try {
      const threeJars = async () => {
        const { id } = await payForOrder(r.shop, { items: [{ id: REPAIR, quantity: 3 }] })
        const detail = await json<{ lines: { id: number }[] }>(
          await r.asStaff('GET', `/api/orders/${id}`),
          200,
        )
        const lineId = detail.lines[0]?.id ?? 0
        const refund = async (restock: boolean) => {
          await json(
            await r.asStaff('POST', `/api/orders/${id}/refunds`, {
              lines: [{ lineId, quantity: 1 }],
              restock,
            }),
            201,
          )
          await r.events.deliver()
        }
        const failLast = async () => {
          const rows = await refundRows(r.shop, id)
          const last = rows.find((row) => row.status === 'succeeded')
          await r.demo.failRefund(last?.providerRefundId ?? '', 'expired_or_canceled_card')
          await r.events.deliver()
        }
        return { id, refund, failLast }
      }
      // A jar put back on the shelf; its refund fails, so it comes off again (the order has it to ship), and
      // the refund is made again with restock: back once, and the cancel puts back the other two.
      const a = await threeJars()
      await a.refund(true)
      expect(await onHand(r.shop, REPAIR, '')).toBe(8)
      await a.failLast()
      expect(await onHand(r.shop, REPAIR, '')).toBe(7)
      await a.refund(true)
      expect(await onHand(r.shop, REPAIR, '')).toBe(8)
      await json(await r.asStaff('POST', `/api/orders/${a.id}/cancel`), 200)
      expect(await onHand(r.shop, REPAIR, '')).toBe(10)
      // The same, but made again for the money only: the jar stays off, once, and the cancel puts back two.
      const kept = await threeJars()
      await kept.refund(true)
      await kept.failLast()
      await kept.refund(false)
      expect(await onHand(r.shop, REPAIR, '')).toBe(7)
      await json(await r.asStaff('POST', `/api/orders/${kept.id}/cancel`), 200)
      expect(await onHand(r.shop, REPAIR, '')).toBe(9)
      // A broken jar kept off the shelf; its refund fails. The cancel refunds the money, not the jar.
      const b = await threeJars()
      await b.refund(false)
      await b.failLast()
      await json(await r.asStaff('POST', `/api/orders/${b.id}/cancel`), 200)
      expect(await onHand(r.shop, REPAIR, '')).toBe(8)
    } finally {
      await json(await r.asStaff('PATCH', `/api/products/${REPAIR}/stock`, { stock: null }), 200)
    }
  })

  test('a restocking refund not made yet when the order is cancelled: the cancel puts its units back, once', async () => {
    const REPAIR = 4
    await json(await r.asStaff('PATCH', `/api/products/${REPAIR}/stock`, { stock: 10 }), 200)
    const realRefund = r.demo.refund
    try {
      const { id } = await payForOrder(r.shop, { items: [{ id: REPAIR, quantity: 2 }] })
      const detail = await json<{ lines: { id: number }[] }>(await r.asStaff('GET', `/api/orders/${id}`), 200)
      const lineId = detail.lines[0]?.id ?? 0
      // The provider cannot be reached: the refund stays asked, its job to be tried again.
      r.demo.refund = async () => {
        throw new Error('socket hang up')
      }
      await json(
        await r.asStaff('POST', `/api/orders/${id}/refunds`, {
          lines: [{ lineId, quantity: 1 }],
          restock: true,
        }),
        201,
      )
      expect((await refundRows(r.shop, id))[0]?.status).toBe('requested')
      r.demo.refund = realRefund
      await json(await r.asStaff('POST', `/api/orders/${id}/cancel`), 200)
      expect(await onHand(r.shop, REPAIR, '')).toBe(10)
      // The refund is made after all: the order is cancelled, so it puts nothing back a second time.
      r.shop.clock.advance(10 * 60_000)
      await r.shop.runDueJobs()
      await r.events.deliver()
      expect((await refundRows(r.shop, id)).map((row) => row.status)).not.toContain('requested')
      expect(await onHand(r.shop, REPAIR, '')).toBe(10)
    } finally {
      r.demo.refund = realRefund
      await json(await r.asStaff('PATCH', `/api/products/${REPAIR}/stock`, { stock: null }), 200)
    }
  })

  test('a cancel puts back the same units whether a restocking refund was made before it or after', async () => {
    const REPAIR = 4
    // A jar refunded without restock, its refund failed, then the same jar refunded again with restock:
    // made before the cancel, or still asked at the provider when the order is cancelled.
    const scenario = async (madeBeforeCancel: boolean) => {
      await json(await r.asStaff('PATCH', `/api/products/${REPAIR}/stock`, { stock: 10 }), 200)
      const realRefund = r.demo.refund
      try {
        const { id } = await payForOrder(r.shop, { items: [{ id: REPAIR, quantity: 3 }] })
        const detail = await json<{ lines: { id: number }[] }>(
          await r.asStaff('GET', `/api/orders/${id}`),
          200,
        )
        const lineId = detail.lines[0]?.id ?? 0
        const refund = (restock: boolean) =>
          r.asStaff('POST', `/api/orders/${id}/refunds`, { lines: [{ lineId, quantity: 1 }], restock })
        await json(await refund(false), 201)
        await r.events.deliver()
        const [kept] = await refundRows(r.shop, id)
        await r.demo.failRefund(kept?.providerRefundId ?? '', 'expired_or_canceled_card')
        await r.events.deliver()
        if (!madeBeforeCancel) {
          r.demo.refund = async () => {
            throw new Error('socket hang up')
          }
        }
        await json(await refund(true), 201)
        await r.events.deliver()
        r.demo.refund = realRefund
        await json(await r.asStaff('POST', `/api/orders/${id}/cancel`), 200)
        r.shop.clock.advance(10 * 60_000)
        await r.shop.runDueJobs()
        await r.events.deliver()
        expect((await refundRows(r.shop, id)).map((row) => row.status)).not.toContain('requested')
        return await onHand(r.shop, REPAIR, '')
      } finally {
        r.demo.refund = realRefund
        await json(await r.asStaff('PATCH', `/api/products/${REPAIR}/stock`, { stock: null }), 200)
      }
    }
    const made = await scenario(true)
    expect(made).toBe(10)
    expect(await scenario(false)).toBe(made)
  })

  test('two staff pressing Cancel at once: one cancel, one refund at the provider, one e-mail', async () => {
    const { id, sessionId } = await payForOrder(r.shop)
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => r.asStaff('POST', `/api/orders/${id}/cancel`)),
    )
    expect(answers.map((res) => res.status).sort()).toEqual([200, 409, 409, 409, 409])
    expect(await providerRefunds(r.shop, sessionId)).toHaveLength(1)
    await r.shop.runDueJobs()
    expect(cancelMails(id)).toHaveLength(1)
  })

  test("a cancel releases the discount's use", async () => {
    const { id } = await payForOrder(r.shop, { discountCode: 'GRIT15', email: 'once@example.com' })
    expect((await orderRow(r.shop, id))?.discountCode).toBe('GRIT15')
    await json(await r.asStaff('POST', `/api/orders/${id}/cancel`), 200)
    const [use] = await r.shop.deps.db
      .select()
      .from(discountRedemptions)
      .where(eq(discountRedemptions.orderRef, number(id)))
    expect(use?.status).toBe('released')
  })

  test('a label job still queued buys no label for a cancelled order', async () => {
    const { id } = await payForOrder(r.shop)
    const bought = r.carrier.state.bought.length
    await json(await r.asStaff('POST', `/api/orders/${id}/cancel`), 200)
    await r.shop.runDueJobs()
    expect(r.carrier.state.bought.length).toBe(bought)
    expect((await orderRow(r.shop, id))?.status).toBe('cancelled')
  })
})
