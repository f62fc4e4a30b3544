/** The staff dashboard's calls (docs/product.md#staff-calls), typed from the API's own schemas (types only). */
import type {
  DashboardOrder,
  DashboardProduct,
  DashboardStats,
  EmailRetryResponse,
  FailedEmail,
  OrderActionResponse,
  OrderDetail,
  PackageRecommendationAnswer,
  RefundAnswer,
  RefundResponse,
  StockResponse,
  UnsettledRefund,
  WebhookEventAnswer,
  WeightResponse,
} from '@core/contracts/dashboard'
import { apiRequest } from '../../lib/api'
import { type OrdersView, ordersPath } from './dashboard-logic'
import type { StockBody } from './stock-edit'

export type {
  DashboardOrder,
  DashboardProduct,
  DashboardStats,
  FailedEmail,
  OrderDetail,
  OrdersView,
  PackageRecommendationAnswer,
  RefundAnswer,
  UnsettledRefund,
  WebhookEventAnswer,
}

/** docs/product.md#dashboard: the dashboard shows the first 10 orders and events. */
export const LIST_SIZE = 10

export const fetchStats = (signal?: AbortSignal) =>
  apiRequest<DashboardStats>('GET', '/api/dashboard/stats', undefined, { signal })

export const fetchOrders = (view: OrdersView, signal?: AbortSignal) =>
  apiRequest<DashboardOrder[]>('GET', ordersPath(view), undefined, { signal })

export const fetchFailedEmails = (signal?: AbortSignal) =>
  apiRequest<FailedEmail[]>('GET', '/api/dashboard/failed-emails', undefined, { signal })

export const retryEmails = (orderId: number) =>
  apiRequest<EmailRetryResponse>('POST', `/api/orders/${orderId}/emails/retry`)

export const fetchOrder = (id: number, signal?: AbortSignal) =>
  apiRequest<OrderDetail>('GET', `/api/orders/${id}`, undefined, { signal })

export const fetchWebhookEvents = (signal?: AbortSignal) =>
  apiRequest<WebhookEventAnswer[]>('GET', `/api/webhooks?limit=${LIST_SIZE}`, undefined, { signal })

export const fetchProducts = (signal?: AbortSignal) =>
  apiRequest<DashboardProduct[]>('GET', '/api/products', undefined, { signal })

export const retryOrder = (id: number) => apiRequest<OrderActionResponse>('POST', `/api/orders/${id}/retry`)

export const markShipped = (id: number) => apiRequest<OrderActionResponse>('POST', `/api/orders/${id}/ship`)

/** `{ stock }` for a product without scents, `{ variants: { scent: units } }` for one with them; null stops counting. */
export const setProductStock = (
  id: number,
  body: StockBody,
  /** Sent with units received, so the same save sent again adds them once. */
  requestKey?: string,
) =>
  apiRequest<StockResponse>('PATCH', `/api/products/${id}/stock`, body, {
    headers: requestKey ? { 'idempotency-key': requestKey } : {},
  })

export const setProductWeight = (id: number, weight: number) =>
  apiRequest<WeightResponse>('PATCH', `/api/products/${id}/weight`, { weight })

export const calculatePackage = (itemCount: number) =>
  apiRequest<PackageRecommendationAnswer>('POST', '/api/calculate-package', { itemCount })

/** The body of POST /api/orders/{id}/refunds: lines or an amount, restock, reason. */
export interface RefundBody {
  lines?: { lineId: number; quantity: number }[]
  amount?: string
  restock: boolean
  reason?: string
}

/** One press of Refund: `key` is the form's Idempotency-Key, so a retried request is the same refund. */
export const refundOrder = (id: number, body: RefundBody, key: string) =>
  apiRequest<RefundResponse>('POST', `/api/orders/${id}/refunds`, body, {
    headers: { 'idempotency-key': key },
  })

export const cancelOrder = (id: number, reason: string) =>
  apiRequest<OrderActionResponse>('POST', `/api/orders/${id}/cancel`, reason ? { reason } : {})

export const fetchFailedRefunds = (signal?: AbortSignal) =>
  apiRequest<UnsettledRefund[]>('GET', '/api/dashboard/failed-refunds', undefined, { signal })
