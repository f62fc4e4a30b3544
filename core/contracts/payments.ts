import { t } from 'elysia'
import { wholeNumber } from './whole-number'

export const sessionIdParams = t.Object({ sessionId: t.String() })

/** Demo session ids as the demo provider makes them; anything else cannot exist. */
export const DEMO_SESSION_ID = /^cs_test_demo_[A-Za-z0-9]{1,64}$/

/** The demo checkout form. Never stored or logged: only checked against the test cards. */
export const demoPayBody = t.Object({
  cardNumber: t.String({ maxLength: 30, error: 'Please enter your card number.' }),
  expiry: t.String({ maxLength: 10, error: 'Please enter the expiry date as MM/YY.' }),
  cvc: t.String({ maxLength: 6, error: "Please enter the card's 3-digit security code." }),
  name: t.String({ maxLength: 100, error: 'Please enter the name on the card.' }),
})

/** GET /api/demo-payments/{sessionId}: what is being paid for, nothing about who pays (demo-payments.ts). */
export const demoSessionSummary = t.Object({
  sessionId: t.String(),
  status: t.UnionEnum(['open', 'complete', 'expired']),
  paymentStatus: t.UnionEnum(['paid', 'unpaid']),
  currency: t.String(),
  /** Cents. */
  amountTotal: wholeNumber(),
  lineItems: t.Array(
    t.Object({
      name: t.String(),
      /** As the provider's page shows it under the name: a price a code lowered says what it was. */
      description: t.String(),
      quantity: wholeNumber(),
      unitAmount: wholeNumber(),
    }),
  ),
  shipping: t.Object({
    displayName: t.String(),
    amount: wholeNumber(),
    minDays: wholeNumber(),
    maxDays: wholeNumber(),
  }),
})

/**
 * What the demo payment form shows. Anyone holding the session id can read it (it is in the checkout URL,
 * the browser history and the success page's link), so it carries nothing personal: no e-mail, no name,
 * no address; only what is being paid for.
 */
export type DemoSessionSummary = typeof demoSessionSummary.static

export const publishableKeyResponse = t.Union([
  t.Object({ publishableKey: t.String() }),
  t.Object({ publishableKey: t.Null(), demo: t.Literal(true) }),
])

export const demoPayResponse = t.Object({
  paid: t.Literal(true),
  sessionId: t.String(),
  /** Where to send the browser, as Stripe's return_url would. */
  returnUrl: t.String(),
  /** Padded to 6 digits. */
  orderNumber: t.Union([t.String(), t.Null()]),
})
