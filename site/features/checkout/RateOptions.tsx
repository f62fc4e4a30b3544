import { formatCurrency } from '@core/rules/money'
import type { Ref } from 'react'
import type { SavedRates } from './draft'
import { deliveryText } from './requests'

/**
 * The room the rates take, kept while there are none, so nothing below moves when they come or go
 * (docs/product.md#shipping): the rate table's three US services. A rate's row is four lines on a phone
 * (its name and its estimate wrap once each; 'Free shipping' wraps in the price's column beside them), two
 * from `sm` up; with the gaps between the rows, and a little to spare for a font drawn a shade taller.
 */
const RATES_ROOM = 'min-h-[26rem] sm:min-h-[17.5rem]'

/**
 * 'Select Shipping Method': the rates quoted for the address and cart on screen, one to choose; before
 * there are any (or once a change of address or cart has discarded them), a line saying how to get them,
 * in the room they will take.
 */
export function RateOptions(props: {
  rates: SavedRates | null
  headingRef: Ref<HTMLHeadingElement>
  onChoose: (id: string) => void
}) {
  const { rates } = props
  // Focusable by the page (not by Tab): focus comes here when the button pressed for the rates was
  // disabled while they were asked for (use-shipping-checkout.ts).
  const heading = (
    <h2 ref={props.headingRef} tabIndex={-1} className="mb-4 text-xl font-bold uppercase">
      Select Shipping Method
    </h2>
  )
  return (
    <section className="rounded-lg border border-line bg-surface p-4 sm:p-6">
      {rates ? (
        <fieldset>
          <legend className="w-full">{heading}</legend>
          <div className={`grid content-start gap-3 ${RATES_ROOM}`}>
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
                  </span>
                  {/* As wide on every row on a phone, free or not: the rows' text wraps alike. */}
                  <span className="grid w-16 shrink-0 justify-items-end text-right sm:w-auto">
                    {rate.free && <span className="text-sm font-semibold text-success">Free shipping</span>}
                    <span className="font-bold">{formatCurrency(rate.price)}</span>
                  </span>
                </label>
              )
            })}
          </div>
        </fieldset>
      ) : (
        <>
          {heading}
          <p
            className={`flex items-center justify-center rounded-md border-2 border-dashed border-line p-4 text-center text-muted ${RATES_ROOM}`}
          >
            Shipping methods and their prices show here once you press Get Shipping Rates.
          </p>
        </>
      )}
    </section>
  )
}
