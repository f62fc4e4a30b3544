import { type DiscountTerms, discountCents, discountShortfallCents } from '@core/rules/discounts'
import { formatCents, MIN_CHARGE_CENTS } from '@core/rules/money'
import { cartPackageLabel } from '@core/rules/package'
import { amountToFreeShippingCents, formatWeight } from '@core/rules/shipping'
import { useState } from 'react'
import { showToast } from '../toasts/store'
import { discountApplied } from './checkout-store'
import { DiscountCode } from './DiscountCode'
import { type CartLine, cartLines } from './store'
import { cartTotals } from './totals'

function continueToShipping() {
  // Read the store, not the render: another tab may have emptied the cart since.
  const current = cartLines.get()
  if (current.length === 0) {
    showToast({
      title: 'Empty Cart',
      description: 'Please add items to your cart before proceeding.',
      variant: 'error',
    })
    return
  }
  const subtotal = cartTotals(current).subtotalCents
  if (subtotal - discountCents(subtotal, discountApplied.get()) < MIN_CHARGE_CENTS) {
    showToast({
      title: 'Order Total Too Low',
      description:
        'Order total must be at least $0.50 after discounts. Please add more items or use a smaller discount.',
      variant: 'error',
    })
    return
  }
  window.location.assign('/shipping')
}

/** The cart's side column: the order summary, the discount code, free shipping, and on to shipping. */
export function CartSummary({
  lines,
  discount,
}: {
  lines: readonly CartLine[]
  discount: DiscountTerms | null
}) {
  // While a code is checked, going on would leave without it (its answer lands on a page left behind).
  const [checking, setChecking] = useState(false)
  const totals = cartTotals(lines)
  const discountOff = discountCents(totals.subtotalCents, discount)
  const totalCents = totals.subtotalCents - discountOff
  const toFreeShipping = amountToFreeShippingCents(totalCents)
  return (
    <aside aria-labelledby="summary-heading" className="space-y-4">
      <div className="rounded-lg border border-line bg-surface p-5">
        <h2 id="summary-heading" className="font-display text-xl font-bold uppercase">
          Order Summary
        </h2>
        <dl className="mt-4 space-y-2" data-summary>
          <SummaryRow label="Items" value={String(totals.itemCount)} />
          <SummaryRow label="Subtotal" value={formatCents(totals.subtotalCents)} />
          <SummaryRow label="Total weight" value={formatWeight(totals.weightOz)} />
          <SummaryRow label="Shipping" value="Calculated at checkout" />
          <SummaryRow label="Package size" value={cartPackageLabel(totals.itemCount) ?? '—'} />
          {discount && (
            <SummaryRow
              label={`Discount (${discount.code})`}
              // Below the code's minimum: kept, and said so beside the code (DiscountCode).
              value={
                discountShortfallCents(totals.subtotalCents, discount) > 0
                  ? 'Not applied'
                  : `−${formatCents(discountOff)}`
              }
            />
          )}
          <div className="flex justify-between border-t border-line pt-3 text-lg font-bold">
            <dt>Total</dt>
            <dd data-total>{formatCents(totalCents)}</dd>
          </div>
        </dl>

        <DiscountCode
          discount={discount}
          subtotalCents={totals.subtotalCents}
          checking={checking}
          setChecking={setChecking}
        />

        {toFreeShipping > 0 && (
          <p className="mt-4 text-sm font-bold text-brand">
            Add {formatCents(toFreeShipping)} to qualify for free shipping
          </p>
        )}

        <button
          type="button"
          className="btn-primary mt-5 w-full"
          onClick={continueToShipping}
          disabled={checking}
          aria-busy={checking}
        >
          {checking ? 'Checking your code…' : 'Continue to Shipping'}
        </button>
      </div>

      <ul className="m-0 list-none space-y-2 p-0 text-sm text-muted">
        <li>Free shipping on orders over $35</li>
        <li>30-day returns for unused products</li>
        <li>Secure checkout via our card payment provider</li>
      </ul>
    </aside>
  )
}

function SummaryRow({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-muted">{label}</dt>
      <dd className="text-right font-semibold">{value}</dd>
    </div>
  )
}
