import { describe, expect, test } from 'bun:test'
import { withoutPersonalData } from '../../api/lib/redact'

describe('withoutPersonalData', () => {
  test('replaces every e-mail address an outside error quotes', () => {
    expect(
      withoutPersonalData(
        "Can't send mail - all recipients were rejected: 550 5.1.1 <Dana.Cole+shop@Example.co.uk>: unknown",
      ),
    ).toBe("Can't send mail - all recipients were rejected: 550 5.1.1 <[e-mail]>: unknown")
    expect(withoutPersonalData('Invalid email address: a@b.co, also "x y"@mail.example.org')).toBe(
      'Invalid email address: [e-mail], also [e-mail]',
    )
  })

  test('leaves text without addresses alone', () => {
    const text = '[orders] 000012: The carrier refused the address; paid for USPS Priority Mail @ $9.80'
    expect(withoutPersonalData(text)).toBe(text)
  })
})
