import { CheckoutSummary } from './CheckoutSummary'
import { RateOptions } from './RateOptions'
import { ShippingAddressForm } from './ShippingAddressForm'
import { useShippingCheckout } from './use-shipping-checkout'

/** Checkout step 1 (docs/product.md#shipping): address, optional billing address, shipping method. */
export default function ShippingCheckout() {
  const checkout = useShippingCheckout()
  const { busy } = checkout
  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)] lg:items-start">
      <div className="grid gap-6">
        <ShippingAddressForm
          draft={checkout.draft}
          errors={checkout.errors}
          loaded={checkout.loaded}
          busy={busy !== null}
          calculating={busy === 'rates'}
          onEmail={checkout.setEmail}
          onAddress={checkout.setAddressField}
          onSeparateBilling={checkout.setSeparateBilling}
          onSubmit={checkout.getRates}
        />
        <p role="status" className="sr-only">
          {checkout.status}
        </p>
        <RateOptions
          rates={checkout.rates}
          headingRef={checkout.ratesHeading}
          onChoose={checkout.chooseRate}
        />
      </div>
      <CheckoutSummary
        lines={checkout.lines}
        discount={checkout.discount}
        selected={checkout.selected}
        busy={busy !== null}
        paying={busy === 'session'}
        loaded={checkout.loaded}
        onContinue={checkout.continueToPayment}
      />
    </div>
  )
}
