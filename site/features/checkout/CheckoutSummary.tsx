import { type DiscountTerms, discountShortfallCents } from '@core/rules/discounts'
import { formatCents } from '@core/rules/money'
import { formatWeight } from '@core/rules/shipping'
import type { CartLine } from '../cart/store'
import { cartWeightOunces, goodsTotals, lineCents, type Rate } from './requests'

/** The /shipping page's 'Order Summary': the lines, the totals with the chosen rate, and the way to payment. */
export function CheckoutSummary(props: {
  lines: readonly CartLine[]
  discount: DiscountTerms | null
  selected: Rate | null
  busy: boolean
  paying: boolean
  /** The cart has been read from this browser: until then its figures are not shown as $0.00. */
  loaded: boolean
  onContinue: () => void
}) {
  const { lines, discount, selected, loaded } = props
  const totals = goodsTotals(lines, discount)
  const shippingCents = selected ? Math.round(selected.price * 100) : null
  // Before the cart is read (a slow phone, the script still on its way) an empty cart at $0.00 would read as
  // a cart emptied: the figures wait.
  const money = (cents: number) => (loaded ? formatCents(cents) : '…')
  return (
    <aside
      className="rounded-lg border border-line bg-surface p-4 sm:p-6 lg:sticky lg:top-[calc(var(--header-h)+1rem)]"
      aria-labelledby="summary-heading"
    >
      <h2 id="summary-heading" className="mb-4 text-xl font-bold uppercase">
        Order Summary
      </h2>
      <ul className="grid gap-2 text-sm">
        {!loaded && <li className="text-muted">Loading your order…</li>}
        {lines.map((line) => (
          <li key={`${line.product.id}:${line.selectedVariant ?? ''}`} className="flex justify-between gap-4">
            <span>
              {line.product.name}
              {line.selectedVariant ? ` (${line.selectedVariant})` : ''} × {line.quantity}
            </span>
            <span>{formatCents(lineCents(line))}</span>
          </li>
        ))}
      </ul>
      <dl className="mt-4 grid gap-2 border-t border-line pt-4 text-sm">
        <div className="flex justify-between">
          <dt>Subtotal</dt>
          <dd>{money(totals.subtotalCents)}</dd>
        </div>
        {discount && totals.discountCents > 0 && (
          <div className="flex justify-between text-success">
            <dt>Discount ({discount.code})</dt>
            <dd>−{formatCents(totals.discountCents)}</dd>
          </div>
        )}
        {discount && discountShortfallCents(totals.subtotalCents, discount) > 0 && (
          <div className="flex justify-between gap-4 text-muted" data-discount-waiting>
            <dt>Discount ({discount.code})</dt>
            <dd className="text-right">
              Not applied: needs an order of at least {formatCents(discount.minSubtotalCents ?? 0)}
            </dd>
          </div>
        )}
        <div className="flex justify-between">
          <dt>Shipping</dt>
          <dd>{shippingCents === null ? 'Select a method' : formatCents(shippingCents)}</dd>
        </div>
        <div className="flex justify-between text-muted">
          <dt>Total weight</dt>
          <dd>{loaded ? formatWeight(cartWeightOunces(lines)) : '…'}</dd>
        </div>
        <div className="flex justify-between border-t border-line pt-2 text-base font-bold">
          <dt>Total</dt>
          <dd>{money(totals.totalCents + (shippingCents ?? 0))}</dd>
        </div>
      </dl>
      <button
        type="button"
        className="btn-primary mt-6 w-full"
        disabled={!selected || props.busy}
        onClick={props.onContinue}
      >
        {props.paying ? 'Processing...' : 'Continue to Payment'}
      </button>
      {!selected && (
        <p className="mt-2 text-center text-xs text-muted">
          Get shipping rates and choose a method to continue.
        </p>
      )}
    </aside>
  )
}
