import { describe, expect, test } from 'bun:test'
import {
  checkClientSecret,
  demoSessionId,
  INVALID_SECRET,
  isSuccessUrl,
  MISSING_SESSION,
  STATUS_POLL_DELAYS_MS,
  shortOrderId,
} from '../../../site/features/checkout/session'

describe('checkClientSecret (docs/product.md#checkout)', () => {
  test('missing or blank', () => {
    expect(checkClientSecret(null)).toEqual({ ok: false, message: MISSING_SESSION })
    expect(checkClientSecret('  ')).toEqual({ ok: false, message: MISSING_SESSION })
  })

  test('must start with cs_live_ or cs_test_', () => {
    expect(checkClientSecret('pi_123_secret_x')).toEqual({ ok: false, message: INVALID_SECRET })
    expect(checkClientSecret('cs_prod_123')).toEqual({ ok: false, message: INVALID_SECRET })
    expect(checkClientSecret('cs_test_a1_secret_b2')).toEqual({ ok: true, secret: 'cs_test_a1_secret_b2' })
    expect(checkClientSecret('cs_live_a1_secret_b2')).toEqual({ ok: true, secret: 'cs_live_a1_secret_b2' })
  })
})

describe('demoSessionId', () => {
  test('the part before _secret_ when it is a demo session id', () => {
    expect(demoSessionId('cs_test_demo_AbC123_secret_XyZ')).toBe('cs_test_demo_AbC123')
  })

  test('null for Stripe secrets and malformed ones', () => {
    expect(demoSessionId('cs_test_a1b2_secret_c3')).toBeNull()
    expect(demoSessionId('cs_test_demo_AbC123')).toBeNull()
    expect(demoSessionId('cs_test_demo_../x_secret_y')).toBeNull()
  })
})

describe('shortOrderId (docs/product.md#success)', () => {
  test('first 20 characters and an ellipsis', () => {
    expect(shortOrderId('cs_test_demo_ABCDEFGHIJKLMNOP')).toBe('cs_test_demo_ABCDEFG...')
  })
})

describe('status polling', () => {
  test('backs off and stops after about 30 seconds', () => {
    const total = STATUS_POLL_DELAYS_MS.reduce((sum, delay) => sum + delay, 0)
    expect(total).toBeGreaterThanOrEqual(25_000)
    expect(total).toBeLessThanOrEqual(35_000)
    for (let i = 1; i < STATUS_POLL_DELAYS_MS.length; i++) {
      expect(STATUS_POLL_DELAYS_MS[i] ?? 0).toBeGreaterThanOrEqual(STATUS_POLL_DELAYS_MS[i - 1] ?? 0)
    }
  })
})

describe('isSuccessUrl', () => {
  test('only our own success page', () => {
    expect(isSuccessUrl('/success?session_id=cs_test_demo_abc')).toBe(true)
    expect(isSuccessUrl('https://evil.example/success?session_id=x')).toBe(false)
    expect(isSuccessUrl('//evil.example/success?session_id=x')).toBe(false)
    expect(isSuccessUrl('/success?session_id=x&next=//evil')).toBe(false)
  })
})
