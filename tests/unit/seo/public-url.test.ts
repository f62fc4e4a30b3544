import { describe, expect, test } from 'bun:test'
import { PublicUrlError, publicUrlFrom } from '@core/rules/public-url'
import { readConfig } from '../../../api/env'

describe('the public origin the server and the site build share', () => {
  test('PUBLIC_URL, without a trailing slash', () => {
    expect(publicUrlFrom({ PUBLIC_URL: 'https://gritandwhisker.example/' })).toBe(
      'https://gritandwhisker.example',
    )
  })

  test('unset: localhost on PORT, or 4321', () => {
    expect(publicUrlFrom({})).toBe('http://localhost:4321')
    expect(publicUrlFrom({ PORT: '8080', PUBLIC_URL: ' ' })).toBe('http://localhost:8080')
  })

  test.each([
    ['shop.example', 'PUBLIC_URL must be a URL (got "shop.example")'],
    ['ftp://shop.example', 'PUBLIC_URL must start with http: or https: (got "ftp://shop.example")'],
  ])('refuses %p with one line', (value, message) => {
    expect(() => publicUrlFrom({ PUBLIC_URL: value })).toThrow(new PublicUrlError(message))
  })

  test('the server reads the same origin as the build', () => {
    for (const env of [
      {},
      { PORT: '8080' },
      { PUBLIC_URL: 'https://gritandwhisker.example/', DEMO_PAYMENTS: 'true' },
    ]) {
      expect(readConfig(env).publicUrl).toBe(publicUrlFrom(env))
    }
  })
})
