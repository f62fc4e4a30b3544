/**
 * A signed-in customer's /shipping starts with their e-mail and saved address (docs/product.md#shipping). Only empty fields
 * are filled: whatever the shopper already typed in this tab stays. Pure, so it is tested alone.
 */
import type { PublicUser } from '@core/contracts/account'
import { COUNTRIES } from '../../components/form/countries'
import type { CheckoutDraft } from './form'

function blank(value: string): boolean {
  return value.trim() === ''
}

export function prefillFromAccount(draft: CheckoutDraft, user: PublicUser): CheckoutDraft {
  const email = blank(draft.email) ? user.email : draft.email
  const shipping = draft.shipping
  const untouched = [shipping.name, shipping.street1, shipping.street2, shipping.city, shipping.zip].every(
    blank,
  )
  const saved = user.address
  if (!untouched || !saved) return { ...draft, email }
  const country = COUNTRIES.some((entry) => entry.code === saved.country) ? saved.country : shipping.country
  return {
    ...draft,
    email,
    shipping: {
      ...shipping,
      name: `${user.firstName} ${user.lastName}`.trim(),
      street1: saved.street,
      city: saved.city,
      state: saved.state,
      zip: saved.zipCode,
      country,
    },
  }
}
