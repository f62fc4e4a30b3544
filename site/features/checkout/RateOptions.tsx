import { formatCurrency } from '@core/rules/money'
import type { Ref } from 'react'
import type { SavedRates } from './draft'
import { deliveryText } from './requests'

/** 'Select Shipping Method': the rates quoted for the address and cart on screen, one to choose. */
export function RateOptions(props: {
  rates: SavedRates
  headingRef: Ref<HTMLHeadingElement>
  onChoose: (id: string) => void
}) {
  const { rates } = props
  return (
    <section className="rounded-lg border border-line bg-surface p-4 sm:p-6">
      <fieldset>
        <legend className="w-full">
          {/* Focusable by the page (not by Tab): focus comes here when the button pressed for the rates was
              disabled while they were asked for (use-shipping-checkout.ts). */}
          <h2 ref={props.headingRef} tabIndex={-1} className="mb-4 text-xl font-bold uppercase">
            Select Shipping Method
          </h2>
        </legend>
        <div className="grid gap-3">
          {rates.rates.map((rate) => {
            const checked = rate.id === rates.selectedId
            return (
              <label
                key={rate.id}
                className={`flex cursor-pointer items-center gap-3 rounded-md border-2 p-4 transition-colors ${
                  checked ? 'border-brand bg-bg' : 'border-line hover:border-muted'
                }`}
              >
                <input
                  type="radio"
                  name="shipping-rate"
                  value={rate.id}
                  checked={checked}
                  onChange={() => props.onChoose(rate.id)}
                  className="h-5 w-5 shrink-0 accent-[var(--c-brand)]"
                />
                <span className="grid flex-1 gap-0.5">
                  <span className="font-semibold">{rate.serviceName}</span>
                  <span className="text-sm text-muted">
                    Estimated delivery: {deliveryText(rate.estimatedDays)}
                  </span>
                  {rate.free && <span className="text-sm font-semibold text-success">Free shipping</span>}
                </span>
                <span className="font-bold">{formatCurrency(rate.price)}</span>
              </label>
            )
          })}
        </div>
      </fieldset>
    </section>
  )
}
