/**
 * Keeps what the shopper typed on /shipping in sessionStorage (this tab only, gone when it closes), so a
 * trip back to the cart loses nothing. Rates are kept with the binding they were quoted for and only
 * while their quote is still good. Card data never comes near this file.
 */

import { type AddressFields, type CheckoutDraft, emptyAddress, emptyDraft } from './form'
import type { Rate } from './requests'

export const DRAFT_KEY = 'checkout-draft'

/** The server keeps a quote for 30 minutes; stop offering it a little before that. */
export const SAVED_RATES_LIFETIME_MS = 25 * 60 * 1000

export interface SavedRates {
  binding: string
  savedAt: number
  rates: Rate[]
  selectedId: string | null
}

export interface SavedCheckout {
  draft: CheckoutDraft
  rates: SavedRates | null
}

function text(value: unknown, max = 200): string {
  return typeof value === 'string' ? value.slice(0, max) : ''
}

function readAddress(value: unknown): AddressFields {
  const base = emptyAddress()
  if (typeof value !== 'object' || value === null) return base
  const raw = value as Record<string, unknown>
  return {
    name: text(raw.name),
    street1: text(raw.street1),
    street2: text(raw.street2),
    city: text(raw.city),
    state: text(raw.state),
    zip: text(raw.zip),
    country: text(raw.country, 2) || base.country,
  }
}

function isRate(value: unknown): value is Rate {
  if (typeof value !== 'object' || value === null) return false
  const rate = value as Partial<Rate>
  return (
    typeof rate.id === 'string' &&
    typeof rate.price === 'number' &&
    typeof rate.carrier === 'string' &&
    typeof rate.serviceName === 'string' &&
    typeof rate.estimatedDays === 'number'
  )
}

function readRates(value: unknown, now: number): SavedRates | null {
  if (typeof value !== 'object' || value === null) return null
  const raw = value as Partial<SavedRates>
  if (typeof raw.binding !== 'string' || typeof raw.savedAt !== 'number' || !Array.isArray(raw.rates))
    return null
  if (now - raw.savedAt > SAVED_RATES_LIFETIME_MS || raw.savedAt > now) return null
  const rates = raw.rates.filter(isRate)
  if (rates.length === 0) return null
  const selectedId = rates.some((rate) => rate.id === raw.selectedId) ? (raw.selectedId as string) : null
  return { binding: raw.binding, savedAt: raw.savedAt, rates, selectedId }
}

/** Reads a saved checkout; anything unreadable becomes an empty form rather than an error. */
export function parseSavedCheckout(raw: string | null, now: number): SavedCheckout {
  const empty: SavedCheckout = { draft: emptyDraft(), rates: null }
  if (!raw) return empty
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return empty
  }
  if (typeof value !== 'object' || value === null) return empty
  const saved = value as Record<string, unknown>
  const draft = (typeof saved.draft === 'object' && saved.draft !== null ? saved.draft : {}) as Record<
    string,
    unknown
  >
  return {
    draft: {
      email: text(draft.email, 254),
      shipping: readAddress(draft.shipping),
      separateBilling: draft.separateBilling === true,
      billing: readAddress(draft.billing),
    },
    rates: readRates(saved.rates, now),
  }
}

export function loadSavedCheckout(now = Date.now()): SavedCheckout {
  try {
    return parseSavedCheckout(window.sessionStorage.getItem(DRAFT_KEY), now)
  } catch {
    // Storage can be blocked (privacy settings): the form simply starts empty.
    return parseSavedCheckout(null, now)
  }
}

export function saveCheckout(saved: SavedCheckout): void {
  try {
    window.sessionStorage.setItem(DRAFT_KEY, JSON.stringify(saved))
  } catch {
    // Full or blocked storage only costs the convenience of a restored form.
  }
}

/** After payment the address has served its purpose in this tab. */
export function forgetCheckout(): void {
  try {
    window.sessionStorage.removeItem(DRAFT_KEY)
  } catch {
    // nothing to forget
  }
}
