import { formatOrderNumber } from '@core/rules/order-status'
import type { WebhookEventAnswer } from './api'
import { Section } from './Section'
import { ShopTime } from './ShopTime'
import { StatusBadge } from './StatusBadge'
import type { Polled } from './use-polling'

/** docs/product.md#dashboard: the newest 10 payment events, refreshed every 10 s, with the same badges as orders. */
export function WebhookEvents({ state }: { state: Polled<WebhookEventAnswer[]> }) {
  const events = state.data ?? []
  return (
    <Section
      id="events"
      title="Webhook Events"
      loading={state.loading}
      error={state.error}
      hasData={state.data !== null}
      loadingText="Loading events..."
    >
      {events.length === 0 ? (
        <p className="text-muted">No payment events yet.</p>
      ) : (
        <ul className="grid gap-2">
          {events.map((event) => (
            <li key={event.id} className="rounded-md border border-line p-3 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-semibold break-all">{event.eventType}</span>
                <StatusBadge status={event.status} />
              </div>
              <div className="mt-1 flex flex-wrap gap-x-4 text-xs text-muted">
                <ShopTime at={event.createdAt} />
                {event.orderId !== null && <span>Order #{formatOrderNumber(event.orderId)}</span>}
                {event.processingTimeMs !== null && <span>{event.processingTimeMs} ms</span>}
              </div>
              <div className="mt-1 font-mono text-xs text-muted break-all">{event.id}</div>
            </li>
          ))}
        </ul>
      )}
    </Section>
  )
}
