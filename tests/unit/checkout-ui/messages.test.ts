import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import {
  CHECKOUT_FAILED,
  isStaleQuote,
  MIN_TOTAL_MESSAGE,
  ratesErrorToast,
  sessionErrorToast,
} from '../../../site/features/checkout/messages'
import { ApiError } from '../../../site/lib/api'

describe('ratesErrorToast (docs/product.md#shipping)', () => {
  test("a 4xx with the server's message says what to fix", () => {
    const error = new ApiError(422, 'Please choose a state.', { error: 'Please choose a state.' })
    expect(ratesErrorToast(error)).toEqual({ title: 'Shipping Error', description: 'Please choose a state.' })
  })

  test('server faults, carrier trouble, non-JSON answers and network failures get the generic text', () => {
    const generic = {
      title: 'Shipping Error',
      description: 'Failed to calculate shipping rates. Please try again.',
    }
    expect(ratesErrorToast(new ApiError(502, 'We could not reach the carrier.', { error: 'x' }))).toEqual(
      generic,
    )
    expect(ratesErrorToast(new ApiError(400, '400: Bad Request'))).toEqual(generic)
    expect(ratesErrorToast(new ApiError(0, 'offline'))).toEqual(generic)
    expect(ratesErrorToast(new Error('boom'))).toEqual(generic)
  })
})

describe('sessionErrorToast (docs/product.md#shipping)', () => {
  test('the server message becomes the Payment Error text', () => {
    expect(sessionErrorToast(new ApiError(409, 'Your shipping rate has expired.'))).toEqual({
      title: 'Payment Error',
      description: 'Your shipping rate has expired.',
    })
  })

  test('a non-JSON answer keeps its "Server returned invalid response" text', () => {
    const toast = sessionErrorToast(new ApiError(0, 'Server returned invalid response: <html>'))
    expect(toast.description).toBe('Server returned invalid response: <html>')
  })

  test('the minimum-charge refusal is shown as Order Total Too Low', () => {
    expect(sessionErrorToast(new ApiError(422, MIN_TOTAL_MESSAGE)).title).toBe('Order Total Too Low')
  })

  test('our text matches the server message it recognises', () => {
    // Read as text: the server module is not for the browser, and loading it needs the whole API.
    const server = readFileSync(new URL('../../../api/modules/checkout/service.ts', import.meta.url), 'utf8')
    expect(server.replace(/'\s*\+?\s*\n?\s*'/g, '')).toContain(MIN_TOTAL_MESSAGE)
  })

  test('no message falls back to the generic text', () => {
    expect(sessionErrorToast(new Error(''))).toEqual({ title: 'Payment Error', description: CHECKOUT_FAILED })
    expect(sessionErrorToast('weird')).toEqual({ title: 'Payment Error', description: CHECKOUT_FAILED })
  })

  test('409 means the quote must be fetched again', () => {
    expect(isStaleQuote(new ApiError(409, 'x'))).toBe(true)
    expect(isStaleQuote(new ApiError(422, 'x'))).toBe(false)
  })
})
