import {
  dashboardOrderSchema,
  dashboardProductSchema,
  dashboardStatsSchema,
  emailRetryResponse,
  failedEmailSchema,
  idParams,
  orderActionResponse,
  orderDetailSchema,
  orderFiltersQuery,
  ordersQuery,
  packageRecommendationSchema,
  pageQuery,
  refundResponse,
  stockResponse,
  unsettledRefundSchema,
  webhookEventSchema,
  weightResponse,
} from '@core/contracts/dashboard'
import { PRODUCT_WEIGHT_MESSAGE } from '@core/rules/product-weight'
import { STOCK_MESSAGE } from '@core/rules/stock'
import { Elysia, t } from 'elysia'
import type { Clock } from '../../lib/clock'
import { sessionAuth } from '../auth/guard'
import type { AuthService } from '../auth/service'
import type { DashboardService } from './service'
import { ITEM_COUNT_MESSAGE } from './service'

/**
 * The staff dashboard's calls (docs/product.md#staff-calls). Every route here is `staff: true`: anonymous callers get 401,
 * customers 403, before any handler runs (api/modules/auth/guard.ts). Answers are never cached.
 */
export function dashboardRoutes(services: { auth: AuthService; dashboard: DashboardService }, clock: Clock) {
  return new Elysia()
    .use(orderRoutes(services, clock))
    .use(refundRoutes(services, clock))
    .use(findingRoutes(services, clock))
    .use(shopRoutes(services, clock))
}

function staffCalls(auth: AuthService, clock: Clock) {
  return new Elysia().use(sessionAuth(auth, clock)).onAfterHandle(({ set }) => {
    set.headers['cache-control'] = 'no-store'
  })
}

/** The counts, the orders, one order and its label, and what staff do to an order. */
function orderRoutes({ auth, dashboard }: { auth: AuthService; dashboard: DashboardService }, clock: Clock) {
  return staffCalls(auth, clock)
    .get('/api/dashboard/stats', () => dashboard.stats(), {
      detail: { summary: 'Dashboard counts', tags: ['Staff'] },
      staff: true,
      response: { 200: dashboardStatsSchema },
    })
    .get('/api/orders', ({ query }) => dashboard.orders(query), {
      detail: {
        summary:
          'Orders, newest first: search by number, e-mail or name, by status and days, a page at a time',
        tags: ['Staff'],
      },
      staff: true,
      query: ordersQuery,
      response: { 200: t.Array(dashboardOrderSchema) },
    })
    .get('/api/orders/:id', ({ params }) => dashboard.order(params.id), {
      detail: { summary: 'One order with its lines, addresses and history', tags: ['Staff'] },
      staff: true,
      params: idParams,
      response: { 200: orderDetailSchema },
    })
    .get('/api/orders/:id/label', ({ params }) => labelAnswer(dashboard, params.id), {
      detail: {
        summary: "An order's shipping label (PDF or a redirect to the carrier's)",
        tags: ['Staff'],
      },
      staff: true,
      params: idParams,
    })
    .post('/api/orders/:id/retry', ({ params, user }) => dashboard.retry(params.id, user.id), {
      detail: { summary: 'Retry a failed order: buy its label again', tags: ['Staff'] },
      staff: true,
      params: idParams,
      response: { 200: orderActionResponse },
    })
    .post('/api/orders/:id/ship', ({ params, user }) => dashboard.markShipped(params.id, user.id), {
      detail: { summary: 'Mark an order shipped', tags: ['Staff'] },
      staff: true,
      params: idParams,
      response: { 200: orderActionResponse },
    })
}

/** Cancel and refund an order, and the refunds the payment provider failed or never confirmed. */
function refundRoutes({ auth, dashboard }: { auth: AuthService; dashboard: DashboardService }, clock: Clock) {
  return (
    staffCalls(auth, clock)
      // Bodies are read by the service, so a missing restock or an amount of "ten" gets a 422 that says so.
      .post(
        '/api/orders/:id/refunds',
        async ({ params, body, user, headers, set }) => {
          const answer = await dashboard.refund(params.id, body, user.id, headers['idempotency-key'] ?? null)
          set.status = 201
          return answer
        },
        {
          detail: {
            summary:
              'Refund an order by lines and quantities or by an amount (an Idempotency-Key header makes a retry the same refund)',
            tags: ['Staff'],
          },
          staff: true,
          params: idParams,
          body: t.Unknown({
            description:
              '{ "lines": [{ "lineId": 7, "quantity": 1 }] } or { "amount": "12.50" }, with "restock": true|false and an optional "reason"',
          }),
          parse: 'json',
          response: { 201: refundResponse },
        },
      )
      .post(
        '/api/orders/:id/cancel',
        ({ params, body, user }) => dashboard.cancel(params.id, body, user.id),
        {
          detail: {
            summary: 'Cancel an order that has not shipped: refund what is left, void the label, restock',
            tags: ['Staff'],
          },
          staff: true,
          params: idParams,
          body: t.Optional(t.Unknown({ description: '{ "reason": "…" } (optional)' })),
          parse: 'json',
          response: { 200: orderActionResponse },
        },
      )
      .get('/api/dashboard/failed-refunds', () => dashboard.unsettledRefunds(), {
        detail: {
          summary: 'Refunds the payment provider failed, refused or never confirmed, not settled since',
          tags: ['Staff'],
        },
        staff: true,
        response: { 200: t.Array(unsettledRefundSchema) },
      })
  )
}

/** Finding orders for the accountant, and the order e-mails that gave up. */
function findingRoutes(
  { auth, dashboard }: { auth: AuthService; dashboard: DashboardService },
  clock: Clock,
) {
  return staffCalls(auth, clock)
    .get(
      '/api/orders/export.csv',
      ({ query }) => {
        const { filename, body } = dashboard.exportCsv(query)
        return new Response(body, {
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': `attachment; filename="${filename}"`,
            'cache-control': 'private, no-store',
          },
        })
      },
      {
        detail: {
          summary: 'The orders the filters find, as CSV for the accountant (streamed)',
          tags: ['Staff'],
        },
        staff: true,
        query: orderFiltersQuery,
      },
    )
    .get('/api/dashboard/failed-emails', () => dashboard.failedEmails(), {
      detail: { summary: 'Order e-mails that failed for good, newest first', tags: ['Staff'] },
      staff: true,
      response: { 200: t.Array(failedEmailSchema) },
    })
    .post('/api/orders/:id/emails/retry', ({ params, user }) => dashboard.retryEmails(params.id, user.id), {
      detail: { summary: "Send an order's failed e-mails again (queued once)", tags: ['Staff'] },
      staff: true,
      params: idParams,
      response: { 200: emailRetryResponse },
    })
}

/** The label as the carrier made it: the PDF kept on this server, or a redirect to the carrier's copy. */
async function labelAnswer(dashboard: DashboardService, id: string): Promise<Response> {
  const { number, source } = await dashboard.label(id)
  const headers = { 'cache-control': 'private, no-store' }
  if (source.kind === 'redirect') {
    return new Response(null, { status: 302, headers: { ...headers, location: source.url } })
  }
  const file = Bun.file(source.path)
  if (!(await file.exists())) {
    return Response.json(
      { error: 'The label file is missing from the server. Retry cannot help: contact the carrier.' },
      { status: 404, headers },
    )
  }
  return new Response(file.stream(), {
    headers: {
      ...headers,
      'content-type': 'application/pdf',
      'content-length': String(file.size),
      'content-disposition': `inline; filename="label-${number}.pdf"`,
    },
  })
}

/** The products' shipping weights and stock, the payment events, and the package size tool. */
function shopRoutes({ auth, dashboard }: { auth: AuthService; dashboard: DashboardService }, clock: Clock) {
  return (
    staffCalls(auth, clock)
      .get('/api/products', () => dashboard.products(), {
        detail: { summary: 'Products with their shipping weights and stock', tags: ['Staff'] },
        staff: true,
        response: { 200: t.Array(dashboardProductSchema) },
      })
      // Bodies are read by the service, so 0, text, NaN or 1e9 get a 422 that says what a weight must be.
      .patch('/api/products/:id/weight', ({ params, body }) => dashboard.setWeight(params.id, body), {
        detail: { summary: "Set a product's shipping weight: { weight: ounces }", tags: ['Staff'] },
        staff: true,
        params: idParams,
        body: t.Unknown({ description: `{ "weight": ounces }. ${PRODUCT_WEIGHT_MESSAGE}` }),
        parse: 'json',
        response: { 200: weightResponse },
      })
      // As the weight: the service reads the body, so -1, 2.5 or text get a 422 that says what stock must be.
      .patch(
        '/api/products/:id/stock',
        ({ params, body, headers }) =>
          dashboard.setStock(params.id, body, headers['idempotency-key'] ?? null),
        {
          detail: {
            summary:
              "Set a product's units on the shelf, or add units received: { stock: figure }, or { variants: { scent: figure } }; a figure is units, null or { received: units } (an Idempotency-Key header adds them once)",
            tags: ['Staff'],
          },
          staff: true,
          params: idParams,
          body: t.Unknown({
            description: `{ "stock": units } or { "variants": { "scent": units } }; { "received": units } adds to the figure. ${STOCK_MESSAGE}`,
          }),
          parse: 'json',
          response: { 200: stockResponse },
        },
      )
      .get('/api/webhooks', ({ query }) => dashboard.webhookEvents(query), {
        detail: { summary: 'Payment webhook events, newest first', tags: ['Staff'] },
        staff: true,
        query: pageQuery,
        response: { 200: t.Array(webhookEventSchema) },
      })
      .post('/api/calculate-package', ({ body }) => dashboard.calculatePackage(body), {
        detail: { summary: 'Package size for an item count: { itemCount: 1–20 }', tags: ['Staff'] },
        staff: true,
        body: t.Unknown({ description: `{ "itemCount": n }. ${ITEM_COUNT_MESSAGE}` }),
        parse: 'json',
        response: { 200: packageRecommendationSchema },
      })
  )
}
