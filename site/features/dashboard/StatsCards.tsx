import type { DashboardStats } from './api'
import { Section } from './Section'
import type { Polled } from './use-polling'

const CARDS: { key: Exclude<keyof DashboardStats, 'days' | 'timeZone'>; label: string }[] = [
  { key: 'ordersToday', label: 'Orders Today' },
  { key: 'processing', label: 'Processing' },
  { key: 'shipped', label: 'Shipped' },
  { key: 'failed', label: 'Failed' },
]

export function StatsCards({ state }: { state: Polled<DashboardStats> }) {
  return (
    <Section
      id="stats"
      title="Today"
      loading={state.loading}
      error={state.error}
      hasData={state.data !== null}
      loadingText="Loading numbers..."
      keepShape
    >
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        {CARDS.map((card) => (
          <div key={card.key} className="rounded-md border border-line p-3">
            <dt className="text-sm font-semibold uppercase text-muted">{card.label}</dt>
            <dd className="font-display text-3xl font-bold" data-stat={card.key}>
              {state.data ? state.data[card.key] : <span aria-hidden="true">–</span>}
            </dd>
          </div>
        ))}
      </dl>
    </Section>
  )
}
