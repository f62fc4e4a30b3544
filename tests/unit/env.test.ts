import { describe, expect, test } from 'bun:test'
import { availableParallelism } from 'node:os'
import { ConfigError, demoPaymentsNotice, readConfig } from '../../api/env'

describe('configuration', () => {
  test('starts with nothing set', () => {
    const config = readConfig({})
    expect(config.port).toBe(4321)
    expect(config.databaseUrl).toBe('file:./data/shop.db')
    expect(config.stripe).toBeNull()
    expect(config.shippoApiKey).toBeNull()
    expect(config.google).toBeNull()
    expect(config.demoPayments).toEqual({ reason: 'PUBLIC_URL http://localhost:4321 is a loopback address' })
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
    expect(() => readConfig({ NODE_ENV: 'production', DEMO_PAYMENTS: 'true' })).toThrow(
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

  test('Google sign-in: a local http provider in development, https only in production', () => {
    const google = { GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' }
    expect(readConfig(google).google).toEqual({
      ...{ clientId: 'id', clientSecret: 'secret' },
      issuer: 'https://accounts.google.com',
    })
    expect(readConfig({ ...google, GOOGLE_ISSUER: 'http://localhost:9000' }).google?.issuer).toBe(
      'http://localhost:9000',
    )
    const production = {
      NODE_ENV: 'production',
      STRIPE_SECRET_KEY: 'sk_live_abc',
      STRIPE_PUBLISHABLE_KEY: 'pk_live_abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc',
      ...google,
    }
    expect(() => readConfig({ ...production, GOOGLE_ISSUER: 'http://localhost:9000' })).toThrow(
      'GOOGLE_ISSUER must be an https:// URL when NODE_ENV=production',
    )
    expect(readConfig(production).google?.issuer).toBe('https://accounts.google.com')
  })

  describe('demo payments run only where they cannot take a real order', () => {
    const STRIPE = {
      STRIPE_SECRET_KEY: 'sk_test_abc',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc',
    }

    test.each([
      'http://localhost:4321',
      'http://LOCALHOST:8080',
      'http://127.0.0.1:4611',
      'http://127.0.0.2',
      'http://[::1]:4321',
      'http://shop.localhost:4321',
    ])('on by themselves at a loopback PUBLIC_URL: %s', (publicUrl) => {
      expect(readConfig({ PUBLIC_URL: publicUrl }).demoPayments?.reason).toMatch(/is a loopback address$/)
    })

    test.each([
      'https://gritandwhisker.example',
      'http://localhost.gritandwhisker.example',
      'http://10.0.0.5:4321',
      'http://192.168.1.20:4321',
      'http://0.0.0.0:4321',
    ])('refused at a public PUBLIC_URL without Stripe keys: %s', (publicUrl) => {
      expect(() => readConfig({ PUBLIC_URL: publicUrl })).toThrow(
        new ConfigError(
          `PUBLIC_URL ${publicUrl} is not a loopback address and no Stripe keys are set: set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET, or DEMO_PAYMENTS=true to run the demo payment provider there on purpose`,
        ),
      )
    })

    test('DEMO_PAYMENTS=true runs them anywhere outside production, and says so', () => {
      const config = readConfig({ PUBLIC_URL: 'https://demo.gritandwhisker.example', DEMO_PAYMENTS: 'true' })
      expect(config.demoPayments).toEqual({ reason: 'DEMO_PAYMENTS=true' })
      expect(config.stripe).toBeNull()
    })

    test('never beside a real carrier key: the public test card would buy real labels', () => {
      const message =
        'SHIPPO_API_KEY is set but payments would run on the demo provider, so anyone paying with the public test card would buy real shipping labels: set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET, or unset SHIPPO_API_KEY'
      expect(() => readConfig({ SHIPPO_API_KEY: 'shippo_live_abc' })).toThrow(new ConfigError(message))
      expect(() => readConfig({ SHIPPO_API_KEY: 'shippo_test_abc', DEMO_PAYMENTS: 'true' })).toThrow(
        new ConfigError(message),
      )
      const real = readConfig({ ...STRIPE, SHIPPO_API_KEY: 'shippo_live_abc' })
      expect(real.demoPayments).toBeNull()
      expect(real.shippoApiKey).toBe('shippo_live_abc')
    })

    test('the server says at boot that they are on, and why', () => {
      expect(demoPaymentsNotice(readConfig({}))).toBe(
        'Demo payments are on (PUBLIC_URL http://localhost:4321 is a loopback address): the test card 4242 4242 4242 4242 pays and webhooks signed with the public demo secret are accepted. Set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET to take real payments.',
      )
      expect(
        demoPaymentsNotice(readConfig({ PUBLIC_URL: 'https://demo.example', DEMO_PAYMENTS: 'true' })),
      ).toMatch(/^Demo payments are on \(DEMO_PAYMENTS=true\): /)
      expect(demoPaymentsNotice(readConfig(STRIPE))).toBeNull()
    })

    test('with Stripe keys they are off', () => {
      expect(readConfig(STRIPE).demoPayments).toBeNull()
      expect(readConfig({ ...STRIPE, PUBLIC_URL: 'https://gritandwhisker.example' }).demoPayments).toBeNull()
    })

    test.each([
      [{ DEMO_PAYMENTS: 'yes' }, 'DEMO_PAYMENTS must be true or false (got "yes")'],
      [
        { DEMO_PAYMENTS: 'false' },
        'DEMO_PAYMENTS=false but no Stripe keys are set: set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET to take payments',
      ],
      [
        { ...STRIPE, DEMO_PAYMENTS: 'true' },
        'DEMO_PAYMENTS=true but the Stripe keys are set too: unset one of them, so it is clear which takes payments',
      ],
    ])('refuses %p with one clear line', (env, message) => {
      expect(() => readConfig(env)).toThrow(new ConfigError(message))
    })
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

describe('WORKERS', () => {
  const production = {
    NODE_ENV: 'production',
    STRIPE_SECRET_KEY: 'sk_live_x',
    STRIPE_PUBLISHABLE_KEY: 'pk_live_x',
    STRIPE_WEBHOOK_SECRET: 'whsec_x',
  }
  test('one server process in development and tests, one per core in production', () => {
    expect(readConfig({}).workers).toBe(1)
    expect(readConfig({ NODE_ENV: 'test' }).workers).toBe(1)
    expect(readConfig(production).workers).toBe(availableParallelism())
  })
  test('as many as asked, within reason', () => {
    expect(readConfig({ WORKERS: '2' }).workers).toBe(2)
    expect(readConfig({ ...production, WORKERS: '1' }).workers).toBe(1)
    expect(() => readConfig({ WORKERS: '0' })).toThrow(
      new ConfigError('WORKERS must be a whole number from 1 to 64 (got "0")'),
    )
    expect(() => readConfig({ WORKERS: 'all' })).toThrow(/WORKERS must be a whole number/)
  })
})

describe('PASSWORD_HASH', () => {
  test('strong unless a test run asks for light hashes; nowhere else may have them', () => {
    expect(readConfig({}).passwordStrength).toBe('strong')
    expect(readConfig({ NODE_ENV: 'test' }).passwordStrength).toBe('strong')
    expect(readConfig({ NODE_ENV: 'test', PASSWORD_HASH: 'test' }).passwordStrength).toBe('test')
    const refused = new ConfigError('PASSWORD_HASH=test is for test runs only (NODE_ENV=test)')
    expect(() => readConfig({ PASSWORD_HASH: 'test' })).toThrow(refused)
    const production = {
      NODE_ENV: 'production',
      STRIPE_SECRET_KEY: 'sk_live_x',
      STRIPE_PUBLISHABLE_KEY: 'pk_live_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
    }
    expect(() => readConfig({ ...production, PASSWORD_HASH: 'test' })).toThrow(refused)
    expect(() => readConfig({ PASSWORD_HASH: 'weak' })).toThrow(/PASSWORD_HASH/)
  })
})

describe('the domain of the shop’s Message-IDs', () => {
  test('is MAIL_FROM’s, the domain the mail is sent from, even while PUBLIC_URL is localhost', () => {
    expect(readConfig({}).messageIdDomain).toBe('gritandwhisker.example')
    expect(readConfig({ MAIL_FROM: 'Grit & Whisker <orders@mail.gritandwhisker.com>' }).messageIdDomain).toBe(
      'mail.gritandwhisker.com',
    )
    expect(readConfig({ MAIL_FROM: 'Orders@GritAndWhisker.com' }).messageIdDomain).toBe('gritandwhisker.com')
  })

  test('is PUBLIC_URL’s host when MAIL_FROM is on a local name', () => {
    const config = readConfig({
      MAIL_FROM: 'shop@localhost',
      PUBLIC_URL: 'https://gritandwhisker.example',
      DEMO_PAYMENTS: 'true',
    })
    expect(config.messageIdDomain).toBe('gritandwhisker.example')
  })

  test.each(['Grit & Whisker', 'orders@', 'Shop <orders>'])(
    'MAIL_FROM %p is refused with one line',
    (value) => {
      expect(() => readConfig({ MAIL_FROM: value })).toThrow(
        new ConfigError(
          `MAIL_FROM must be an e-mail address, with a name if you like: Grit & Whisker <orders@example.com> (got "${value}")`,
        ),
      )
    },
  )
})
