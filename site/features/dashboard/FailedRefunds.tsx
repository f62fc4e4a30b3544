import { formatCurrency } from '@core/rules/money'
import { fetchFailedRefunds } from './api'
import { Section } from './Section'
import { ShopTime } from './ShopTime'
import { usePolling } from './use-polling'

const EVERY_MS = 30_000

/**
 * docs/product.md#dashboard: refunds the payment provider failed, refused or never confirmed, while their
 * order still has money to refund: what staff decide (refund again from the order, or contact the customer).
 */
export function FailedRefunds(props: { onOpen: (orderId: number, opener: HTMLElement) => void }) {
  const state = usePolling(fetchFailedRefunds, EVERY_MS)
  const refunds = state.data ?? []
  return (
    <Section
      id="failed-refunds"
      title="Failed Refunds"
      loading={state.loading}
      error={state.error}
      hasData={state.data !== null}
      loadingText="Loading refunds..."
    >
      {refunds.length === 0 ? (
        <p className="text-muted">No failed refunds: every refund reached the customer.</p>
      ) : (
        <ul className="grid gap-2" aria-label="Refunds that failed">
          {refunds.map(({ refund, customerName, customerEmail, refundable }) => (
            <li key={refund.id} className="rounded-md border border-line p-3 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-semibold">
                  {formatCurrency(refund.amount)} <span className="font-mono">· #{refund.number}</span>
                </span>
                <button
                  type="button"
                  className="btn-primary !px-3 !py-1.5 text-xs"
                  onClick={(event) => props.onOpen(refund.orderId, event.currentTarget)}
                  aria-label={`Open order ${refund.number} to refund it again`}
                >
                  Open Order
                </button>
              </div>
              <div className="mt-1 text-xs text-muted break-all">
                {customerName} · {customerEmail}
              </div>
              <div className="mt-1 text-xs text-danger break-words">
                {refund.status === 'requested' ? 'Never confirmed' : 'Failed'}:{' '}
                {refund.failureReason ?? 'no reason given'}
              </div>
              <div className="mt-1 text-xs text-muted">
                <ShopTime at={refund.updatedAt} /> · {formatCurrency(refundable)} left to refund: refund it
                again from the order, or contact the customer
              </div>
            </li>
          ))}
        </ul>
      )}
    </Section>
  )
}
