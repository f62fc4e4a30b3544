import { describe, expect, test } from 'bun:test'
import { ConfigError, readConfig } from '../../api/env'

describe('configuration', () => {
  test('starts with nothing set', () => {
    const config = readConfig({})
    expect(config.port).toBe(4321)
    expect(config.databaseUrl).toBe('file:./data/shop.db')
    expect(config.stripe).toBeNull()
    expect(config.shippoApiKey).toBeNull()
    expect(config.google).toBeNull()
  })

  test.each([
    [{ PORT: 'eighty' }, 'PORT must be a port number from 0 to 65535 (got "eighty")'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV must be one of development, production, test (got "staging")'],
    [
      { DATABASE_URL: 'postgres://x' },
      'DATABASE_URL must start with file: or libsql: or http: or https: or ws: or wss: (got "postgres://x")',
    ],
    [
      { STRIPE_SECRET_KEY: 'sk_test_1' },
      'STRIPE_SECRET_KEY set without STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET: set all of them or none',
    ],
    [
      { GOOGLE_CLIENT_ID: 'id' },
      'GOOGLE_CLIENT_ID set without GOOGLE_CLIENT_SECRET: set all of them or none',
    ],
  ])('refuses %p with one clear line', (env, message) => {
    expect(() => readConfig(env)).toThrow(new ConfigError(message))
  })

  test('production refuses the demo payment provider', () => {
    expect(() => readConfig({ NODE_ENV: 'production' })).toThrow(
      /demo payment provider is for development only/,
    )
  })

  test('production with Stripe keys is accepted', () => {
    const config = readConfig({
      NODE_ENV: 'production',
      STRIPE_SECRET_KEY: 'sk_live_abc',
      STRIPE_PUBLISHABLE_KEY: 'pk_live_abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc',
    })
    expect(config.stripe?.publishableKey).toBe('pk_live_abc')
  })
})

describe('TRUST_PROXY', () => {
  test('counts the proxies in front of the shop', () => {
    expect(readConfig({}).trustedProxyHops).toBe(0)
    expect(readConfig({ TRUST_PROXY: 'false' }).trustedProxyHops).toBe(0)
    expect(readConfig({ TRUST_PROXY: 'true' }).trustedProxyHops).toBe(1)
    expect(readConfig({ TRUST_PROXY: '2' }).trustedProxyHops).toBe(2)
    expect(() => readConfig({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY must be the number of proxies/)
  })
})
