import type { FormEvent } from 'react'
import { FIELD, TextField } from '../../components/form/fields'
import { CheckoutAddress } from './CheckoutAddress'
import type { AddressKey, CheckoutDraft, FieldErrors } from './form'

/** The /shipping form: e-mail, shipping address, an optional billing address, and 'Get Shipping Rates'. */
export function ShippingAddressForm(props: {
  draft: CheckoutDraft
  errors: FieldErrors
  /** The saved draft is restored: until then the form must not be sent. */
  loaded: boolean
  busy: boolean
  calculating: boolean
  onEmail: (value: string) => void
  onAddress: (kind: 'shipping' | 'billing', key: AddressKey, value: string) => void
  onSeparateBilling: (separate: boolean) => void
  onSubmit: (event: FormEvent) => void
}) {
  const { draft, errors } = props
  return (
    <form
      // Never a GET: should it be sent before its script runs, the address stays out of the URL.
      method="post"
      noValidate
      onSubmit={props.onSubmit}
      className="grid gap-6"
      aria-labelledby="shipping-address-heading"
    >
      <section className="rounded-lg border border-line bg-surface p-4 sm:p-6">
        <h2 id="shipping-address-heading" className="mb-4 text-xl font-bold uppercase">
          Shipping Address
        </h2>
        <div className="grid gap-4">
          <TextField
            {...FIELD.email}
            id="email"
            label="E-mail"
            value={draft.email}
            onChange={props.onEmail}
            error={errors.email}
            hint="We send your order confirmation here."
          />
          <CheckoutAddress
            kind="shipping"
            address={draft.shipping}
            errors={errors}
            onChange={(key, value) => props.onAddress('shipping', key, value)}
          />
        </div>
      </section>

      <section
        className="rounded-lg border border-line bg-surface p-4 sm:p-6"
        aria-labelledby="billing-heading"
      >
        <h2 id="billing-heading" className="mb-4 text-xl font-bold uppercase">
          Billing Address
        </h2>
        <label className="flex min-h-11 cursor-pointer items-center gap-3 font-semibold">
          <input
            type="checkbox"
            className="h-5 w-5 accent-[var(--c-brand)]"
            checked={draft.separateBilling}
            aria-controls="billing-fields"
            onChange={(event) => props.onSeparateBilling(event.target.checked)}
          />
          Use a different billing address
        </label>
        <div id="billing-fields" className="mt-4" hidden={!draft.separateBilling}>
          {draft.separateBilling && (
            <CheckoutAddress
              kind="billing"
              address={draft.billing}
              errors={errors}
              onChange={(key, value) => props.onAddress('billing', key, value)}
            />
          )}
        </div>
      </section>

      {/* Disabled in the static HTML and until the saved draft is restored: a form sent before then
          would be a GET with the address in the URL (docs/decisions/009-forms-before-hydration.md). A disabled default button
          also stops Enter in a field from sending the form. */}
      <button
        type="submit"
        className="btn-primary w-full sm:w-auto sm:justify-self-start"
        disabled={!props.loaded || props.busy}
      >
        {props.calculating ? 'Calculating Rates...' : 'Get Shipping Rates'}
      </button>
    </form>
  )
}
