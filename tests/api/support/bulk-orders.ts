/**
 * Many orders at once, written straight into the orders table as the paid-order batch writes them (the
 * same columns, the customer key from core/rules/customer.ts), for the tests that need hundreds or
 * thousands: the search's paging and plans, the streamed export. Triggers on the table keep the counts
 * and the daily totals as they do for real orders.
 */
import { customerKey } from '@core/rules/customer'
import type { OrderStatus } from '@core/rules/order-status'
import { orders } from '../../../db/schema/orders'
import type { TestApp } from './test-app'

export interface BulkOrder {
  name?: string
  email?: string
  status?: OrderStatus
  createdAt: Date
  subtotalCents?: number
  discountCents?: number
  shippingCents?: number
  itemCount?: number
}

let made = 0

/** Inserts the orders in the order given (so their numbers rise in that order); returns their numbers. */
export async function insertOrders(shop: TestApp, list: readonly BulkOrder[]): Promise<number[]> {
  const ids: number[] = []
  for (let start = 0; start < list.length; start += 400) {
    const rows = list.slice(start, start + 400).map((order) => {
      made += 1
      const email = order.email ?? `bulk${made}@example.com`
      const name = order.name ?? `Bulk Customer ${made}`
      const address = JSON.stringify({
        name,
        street1: '12 Mill Rd',
        city: 'Austin',
        state: 'TX',
        zip: '78701',
        country: 'US',
      })
      const subtotal = order.subtotalCents ?? 2100
      const discount = order.discountCents ?? 0
      const shipping = order.shippingCents ?? 935
      return {
        checkoutSessionId: `cs_test_bulk_${made}_${Math.random().toString(36).slice(2)}`,
        sourceEventId: `evt_bulk_${made}`,
        email,
        customerKey: customerKey(email),
        customerName: name,
        shippingAddress: address,
        billingAddress: address,
        subtotalCents: subtotal,
        discountCents: discount,
        shippingCents: shipping,
        totalCents: subtotal - discount + shipping,
        itemCount: order.itemCount ?? 1,
        totalWeightTenthsOz: 30,
        shippingCarrier: 'USPS',
        shippingService: 'USPS Priority Mail',
        shippingServiceToken: 'usps_priority',
        status: order.status ?? 'shipped',
        createdAt: order.createdAt,
        updatedAt: order.createdAt,
      }
    })
    const inserted = await shop.deps.db.insert(orders).values(rows).returning({ id: orders.id })
    ids.push(...inserted.map((row) => row.id))
  }
  return ids
}
