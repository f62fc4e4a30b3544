import type { DemoSessionSummary } from '@core/contracts/payments'
import { formatCents } from '@core/rules/money'

/** The demo payment page's 'Order Summary': what the session charges, as the provider was told it. */
export function DemoOrderSummary({ summary }: { summary: DemoSessionSummary }) {
  return (
    <section
      className="rounded-lg border border-line bg-surface p-4 sm:p-6"
      aria-labelledby="demo-summary-heading"
    >
      <h2 id="demo-summary-heading" className="mb-4 text-xl font-bold uppercase">
        Order Summary
      </h2>
      <ul className="grid gap-2 text-sm">
        {summary.lineItems.map((item, index) => (
          // Lines may repeat a name (a split discounted line), so the position keys them.
          // biome-ignore lint/suspicious/noArrayIndexKey: the list never reorders
          <li key={index} className="flex justify-between gap-4">
            <span className="min-w-0">
              {item.name} × {item.quantity}
              {item.description ? (
                <span className="block text-xs text-muted [overflow-wrap:anywhere]">{item.description}</span>
              ) : null}
            </span>
            <span className="shrink-0">{formatCents(item.unitAmount * item.quantity)}</span>
          </li>
        ))}
      </ul>
      <dl className="mt-4 grid gap-2 border-t border-line pt-4 text-sm">
        <div className="flex justify-between gap-4">
          <dt>Shipping ({summary.shipping.displayName})</dt>
          <dd>{formatCents(summary.shipping.amount)}</dd>
        </div>
        <div className="flex justify-between border-t border-line pt-2 text-base font-bold">
          <dt>Total</dt>
          <dd>{formatCents(summary.amountTotal)}</dd>
        </div>
      </dl>
      <p className="mt-4 text-xs text-muted">The receipt goes to the e-mail address you gave at checkout.</p>
    </section>
  )
}
