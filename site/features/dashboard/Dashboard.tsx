import { useCallback, useEffect, useRef, useState } from 'react'
import { ApiError } from '../../lib/api'
import { loginUrlFor } from '../account/sign-in-guard'
import { showToast } from '../toasts/store'
import {
  fetchFailedEmails,
  fetchOrders,
  fetchProducts,
  fetchStats,
  fetchWebhookEvents,
  LIST_SIZE,
  markShipped,
  type OrdersView,
  retryEmails,
  retryOrder,
} from './api'
import { DailyChart } from './DailyChart'
import {
  addressFor,
  filtersQuery,
  RETRY_FAILED_FALLBACK,
  serverMessageOr,
  viewFromAddress,
} from './dashboard-logic'
import { FailedEmails } from './FailedEmails'
import { FailedRefunds } from './FailedRefunds'
import { focusPlace, type ListPlace, placeOf } from './list-place'
import { OrderDetailDialog } from './OrderDetailDialog'
import { OrdersTable } from './OrdersTable'
import type { OrderActions } from './order-actions'
import { PackageCalculator } from './PackageCalculator'
import { ProductWeights } from './ProductWeights'
import { ShopTimeZone } from './ShopTime'
import { StatsCards } from './StatsCards'
import { usePolling } from './use-polling'
import { WebhookEvents } from './WebhookEvents'

/** Refresh intervals (docs/product.md#dashboard). */
const STATS_EVERY_MS = 30_000
const ORDERS_EVERY_MS = 15_000
const EVENTS_EVERY_MS = 10_000
/** After a Retry the label is usually bought within seconds: look again soon instead of in 15 s. */
const AFTER_RETRY_MS = [2_500, 6_000]

export function Dashboard({ onForbidden }: { onForbidden: (email: string) => void }) {
  // A 401 means the session ended (signed out, or removed from staff): sign in again and come back.
  // A 403 means the account is no longer staff.
  const onError = useCallback(
    (error: Error) => {
      if (!(error instanceof ApiError)) return
      if (error.status === 401) window.location.replace(loginUrlFor('/dashboard'))
      if (error.status === 403) onForbidden('')
    },
    [onForbidden],
  )
  const stats = usePolling(fetchStats, STATS_EVERY_MS, onError)
  // The search and filters live in the page's address, so a reload or a shared link keeps them
  // (docs/decisions/025-staff-order-search.md: the server never logs an address's query string).
  const [ordersView, setOrdersView] = useState<OrdersView>(() =>
    viewFromAddress(typeof window === 'undefined' ? '' : window.location.search, LIST_SIZE),
  )
  useEffect(() => {
    const address = addressFor(window.location.pathname, ordersView)
    if (address !== `${window.location.pathname}${window.location.search}`)
      window.history.replaceState(window.history.state, '', address)
  }, [ordersView])
  const loadOrders = useCallback((signal: AbortSignal) => fetchOrders(ordersView, signal), [ordersView])
  const orders = usePolling(
    loadOrders,
    ORDERS_EVERY_MS,
    onError,
    `${filtersQuery(ordersView)}:${ordersView.limit}`,
  )
  const failedEmails = usePolling(fetchFailedEmails, STATS_EVERY_MS, onError)
  const events = usePolling(fetchWebhookEvents, EVENTS_EVERY_MS, onError)
  const products = usePolling(fetchProducts, null, onError)
  const [busy, setBusy] = useState<ReadonlySet<number>>(new Set())
  const [emailsBusy, setEmailsBusy] = useState<ReadonlySet<number>>(new Set())
  const [refreshing, setRefreshing] = useState(false)
  const [detail, setDetail] = useState<{ id: number; version: number } | null>(null)
  // What opened the order's dialog, and where: its row may have left the list by the time it closes.
  const opener = useRef<ListPlace | null>(null)

  const refreshOrders = useCallback(async () => {
    await Promise.allSettled([orders.refresh(), stats.refresh()])
    setDetail((open) => (open ? { ...open, version: open.version + 1 } : open))
  }, [orders.refresh, stats.refresh])

  async function withBusy(id: number, work: () => Promise<void>) {
    setBusy((current) => new Set(current).add(id))
    try {
      await work()
    } finally {
      setBusy((current) => {
        const next = new Set(current)
        next.delete(id)
        return next
      })
    }
  }

  const actions: OrderActions = {
    busy,
    async retry(order) {
      let done = false
      await withBusy(order.id, async () => {
        try {
          const answer = await retryOrder(order.id)
          done = true
          showToast({ title: 'Order Retry Successful', description: answer.message })
          for (const delay of AFTER_RETRY_MS) window.setTimeout(() => void refreshOrders(), delay)
        } catch (error) {
          showToast({
            title: 'Retry Failed',
            description: serverMessageOr(error, RETRY_FAILED_FALLBACK),
            variant: 'error',
          })
        }
        await refreshOrders()
      })
      return done
    },
    async ship(order) {
      let done = false
      await withBusy(order.id, async () => {
        try {
          const answer = await markShipped(order.id)
          done = true
          showToast({ title: 'Order Shipped', description: answer.message })
        } catch (error) {
          showToast({
            title: 'Mark Shipped Failed',
            description: serverMessageOr(error, 'Failed to mark the order shipped.'),
            variant: 'error',
          })
        }
        await refreshOrders()
      })
      return done
    },
    open(order, from) {
      opener.current = placeOf(from)
      setDetail({ id: order.id, version: 0 })
    },
  }

  async function retryOrderEmails(orderId: number) {
    setEmailsBusy((current) => new Set(current).add(orderId))
    try {
      const answer = await retryEmails(orderId)
      showToast({ title: 'E-mail Queued', description: answer.message })
    } catch (error) {
      showToast({
        title: 'Retry Failed',
        description: serverMessageOr(error, 'Failed to queue the e-mail again.'),
        variant: 'error',
      })
    } finally {
      setEmailsBusy((current) => {
        const next = new Set(current)
        next.delete(orderId)
        return next
      })
    }
    await failedEmails.refresh().catch(() => undefined)
  }

  async function refreshAll() {
    setRefreshing(true)
    const results = await Promise.allSettled([
      stats.refresh(),
      orders.refresh(),
      failedEmails.refresh(),
      events.refresh(),
      products.refresh(),
    ])
    setRefreshing(false)
    const failed = results.find((result) => result.status === 'rejected')
    if (failed) {
      showToast({
        title: 'Refresh Failed',
        description: serverMessageOr(failed.reason, 'Some parts of the dashboard could not be loaded.'),
        variant: 'error',
      })
    } else {
      showToast({ title: 'Dashboard Refreshed', description: 'Orders, events and products are up to date.' })
    }
  }

  // Every time below is shown in the shop's zone, which the stats name; once named it stays, through a
  // failed poll.
  return (
    <ShopTimeZone.Provider value={stats.data?.timeZone ?? null}>
      <div className="mt-6 grid grid-cols-1 gap-8">
        {/* What refreshes and how often is said in the page's static HTML (dashboard.astro), above. */}
        <div className="flex flex-wrap items-center justify-end gap-3">
          <button type="button" className="btn-outline" onClick={refreshAll} disabled={refreshing}>
            {refreshing ? 'Refreshing...' : 'Refresh'}
          </button>
        </div>
        <StatsCards state={stats} />
        <DailyChart days={stats.data?.days ?? null} error={stats.error} />
        <OrdersTable state={orders} actions={actions} view={ordersView} onViewChange={setOrdersView} />
        <div className="grid grid-cols-1 gap-8 lg:grid-cols-2">
          <div className="grid min-w-0 grid-cols-1 content-start gap-8">
            <FailedEmails
              state={failedEmails}
              busy={emailsBusy}
              onRetry={(id) => void retryOrderEmails(id)}
            />
            <FailedRefunds onOpen={(id, from) => actions.open({ id }, from)} />
            <WebhookEvents state={events} />
          </div>
          <div className="grid min-w-0 grid-cols-1 content-start gap-8">
            <PackageCalculator />
            <ProductWeights state={products} />
          </div>
        </div>
        {detail && (
          <OrderDetailDialog
            orderId={detail.id}
            version={detail.version}
            actions={actions}
            onClose={() => {
              setDetail(null)
              if (opener.current) focusPlace(opener.current)
            }}
            // The order's row and the day's figures, and the shelf a cancel or restocking refund put units back on.
            onChanged={() => void Promise.allSettled([orders.refresh(), stats.refresh(), products.refresh()])}
          />
        )}
      </div>
    </ShopTimeZone.Provider>
  )
}
