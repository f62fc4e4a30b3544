// Configuration is read and checked once, at boot. A bad value stops the server with one clear line,
// instead of failing later in the middle of a customer's checkout.

import { availableParallelism } from 'node:os'
import { PublicUrlError, publicUrlFrom } from '@core/rules/public-url'
import { LOG_LEVELS, type LogLevel } from './lib/log'
import { isTimeZone } from './lib/time-zone'
import type { PasswordStrength } from './modules/auth/passwords'

export interface Config {
  nodeEnv: 'development' | 'production' | 'test'
  host: string
  port: number
  /** Public origin of the shop, used for absolute links (e-mails, payment return URLs) and the origin check. */
  publicUrl: string
  databaseUrl: string
  databaseAuthToken: string | undefined
  distDir: string
  dataDir: string
  stripe: { secretKey: string; publishableKey: string; webhookSecret: string } | null
  /**
   * Set when the demo payment provider takes payments (no Stripe keys), with why it is allowed to, for the
   * boot log. Null when Stripe does.
   */
  demoPayments: { reason: string } | null
  shippoApiKey: string | null
  smtpUrl: string | null
  mailFrom: string
  /**
   * The domain of the shop's Message-IDs: MAIL_FROM's, the domain its mail is sent from (with SPF and DKIM),
   * or PUBLIC_URL's host when MAIL_FROM is on a local name. Never 'localhost', which spam filters score.
   */
  messageIdDomain: string
  google: { clientId: string; clientSecret: string; issuer: string } | null
  /**
   * How many proxies we run in front of the shop: client addresses are read from X-Forwarded-For that many
   * entries from the right. 0 (the default) trusts no header and uses the socket's address.
   */
  trustedProxyHops: number
  /** How long a claimed job may run before another worker presumes its process dead and takes it over. */
  jobLeaseSeconds: number
  /** How long a webhook handler holds a payment event before a redelivery may take it over. */
  eventLeaseSeconds: number
  /** How many background jobs (e-mails, labels) one instance runs at the same time. */
  jobConcurrency: number
  /** On SIGTERM, how long the server keeps serving (not ready, closing connections) before it stops listening. */
  shutdownDrainSeconds: number
  /** How long a failed job waits before its first retry; each further retry waits twice as long. */
  jobRetrySeconds: number
  /** What the JSON log on standard output carries: info (a line per request and more), warn, error or silent. */
  logLevel: LogLevel
  /** The IANA time zone the shop works in: the dashboard's 'orders today' is today there. */
  shopTimeZone: string
  /**
   * How many server processes answer on the port (api/supervisor.ts): the machine's cores in production,
   * 1 elsewhere, unless WORKERS says.
   */
  workers: number
  /** How hard password hashes are to compute (api/modules/auth/passwords.ts): 'test' only under NODE_ENV=test. */
  passwordStrength: PasswordStrength
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const value = env[name]?.trim() || fallback
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got "${value}")`)
  }
  return value as T
}

function port(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim()
  if (!raw) return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    throw new ConfigError(`${name} must be a port number from 0 to 65535 (got "${raw}")`)
  }
  return value
}

function url(env: Env, name: string, fallback: string, protocols: string[]): string {
  const value = env[name]?.trim() || fallback
  let parsed: URL
  try {
    parsed = new URL(value)
  } catch {
    throw new ConfigError(`${name} must be a URL (got "${value}")`)
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.join(' or ')} (got "${value}")`)
  }
  return value
}

function seconds(env: Env, name: string, fallback: number, range: { min: number; max: number }): number {
  const raw = env[name]?.trim()
  if (!raw) return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < range.min || value > range.max) {
    throw new ConfigError(
      `${name} must be a whole number of seconds from ${range.min} to ${range.max} (got "${raw}")`,
    )
  }
  return value
}

function count(env: Env, name: string, fallback: number, range: { min: number; max: number }): number {
  const raw = env[name]?.trim()
  if (!raw) return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < range.min || value > range.max) {
    throw new ConfigError(`${name} must be a whole number from ${range.min} to ${range.max} (got "${raw}")`)
  }
  return value
}

function timeZone(env: Env, name: string, fallback: string): string {
  const value = env[name]?.trim() || fallback
  if (!isTimeZone(value)) {
    throw new ConfigError(`${name} must be an IANA time zone name such as America/Chicago (got "${value}")`)
  }
  return value
}

/** TRUST_PROXY: a number of proxy hops, or true (one proxy) / false (none). */
function proxyHops(env: Env): number {
  const raw = env.TRUST_PROXY?.trim().toLowerCase() || 'false'
  if (raw === 'false') return 0
  if (raw === 'true') return 1
  if (/^\d{1,2}$/.test(raw) && Number(raw) <= 10) return Number(raw)
  throw new ConfigError(
    `TRUST_PROXY must be the number of proxies in front of the shop (0 to 10), or true for one (got "${raw}")`,
  )
}

/** localhost, *.localhost, 127.0.0.0/8 and ::1: names that only ever reach the machine itself. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1')
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  )
}

const STRIPE_KEY_NAMES = 'STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET'

/**
 * Whether the demo payment provider may take payments, and why. It accepts a public test card and
 * webhooks signed with a public secret, so it runs only where nobody else can order: at a loopback
 * PUBLIC_URL, or where DEMO_PAYMENTS=true says a public demo is meant. Never in production, and never
 * beside a real carrier key, where a test-card order would buy a real label.
 */
function demoPaymentsFor(
  env: Env,
  options: { nodeEnv: Config['nodeEnv']; publicUrl: string; stripe: boolean },
): Config['demoPayments'] {
  const wanted = env.DEMO_PAYMENTS?.trim() ?? ''
  if (!['', 'true', 'false'].includes(wanted)) {
    throw new ConfigError(`DEMO_PAYMENTS must be true or false (got "${wanted}")`)
  }
  if (options.stripe) {
    if (wanted === 'true') {
      throw new ConfigError(
        'DEMO_PAYMENTS=true but the Stripe keys are set too: unset one of them, so it is clear which takes payments',
      )
    }
    return null
  }
  if (options.nodeEnv === 'production') {
    throw new ConfigError(
      `NODE_ENV=production needs ${STRIPE_KEY_NAMES}: the demo payment provider is for development only`,
    )
  }
  if (env.SHIPPO_API_KEY?.trim()) {
    throw new ConfigError(
      `SHIPPO_API_KEY is set but payments would run on the demo provider, so anyone paying with the public test card would buy real shipping labels: set ${STRIPE_KEY_NAMES}, or unset SHIPPO_API_KEY`,
    )
  }
  if (wanted === 'false') {
    throw new ConfigError(
      `DEMO_PAYMENTS=false but no Stripe keys are set: set ${STRIPE_KEY_NAMES} to take payments`,
    )
  }
  if (wanted === 'true') return { reason: 'DEMO_PAYMENTS=true' }
  if (isLoopbackHost(new URL(options.publicUrl).hostname)) {
    return { reason: `PUBLIC_URL ${options.publicUrl} is a loopback address` }
  }
  throw new ConfigError(
    `PUBLIC_URL ${options.publicUrl} is not a loopback address and no Stripe keys are set: set ${STRIPE_KEY_NAMES}, or DEMO_PAYMENTS=true to run the demo payment provider there on purpose`,
  )
}

/** The boot line saying that demo payments are on, and why; null when Stripe takes payments. */
export function demoPaymentsNotice(config: Pick<Config, 'demoPayments'>): string | null {
  if (!config.demoPayments) return null
  return `Demo payments are on (${config.demoPayments.reason}): the test card 4242 4242 4242 4242 pays and webhooks signed with the public demo secret are accepted. Set ${STRIPE_KEY_NAMES} to take real payments.`
}

/** Groups of keys that only make sense together: all set, or none. */
function group<K extends string>(env: Env, names: readonly K[]): Record<K, string> | null {
  const set = names.filter((name) => env[name]?.trim())
  if (set.length === 0) return null
  if (set.length !== names.length) {
    const missing = names.filter((name) => !env[name]?.trim())
    throw new ConfigError(`${set.join(', ')} set without ${missing.join(', ')}: set all of them or none`)
  }
  return Object.fromEntries(names.map((name) => [name, env[name]?.trim() ?? ''])) as Record<K, string>
}

const DEFAULT_MAIL_FROM = 'Grit & Whisker <orders@gritandwhisker.example>'

/** MAIL_FROM, 'orders@example.com' or 'Name <orders@example.com>', and the domain of its address. */
function mailFrom(env: Env): { mailFrom: string; domain: string } {
  const value = env.MAIL_FROM?.trim() || DEFAULT_MAIL_FROM
  const address = /<([^<>]+)>\s*$/.exec(value)?.[1] ?? value
  const domain = /^[^\s@<>]+@([a-z0-9-]+(?:\.[a-z0-9-]+)*)$/i.exec(address.trim())?.[1]
  if (!domain) {
    throw new ConfigError(
      `MAIL_FROM must be an e-mail address, with a name if you like: Grit & Whisker <orders@example.com> (got "${value}")`,
    )
  }
  return { mailFrom: value, domain: domain.toLowerCase() }
}

/** PUBLIC_URL by the rule the site build reads it with too (core/rules/public-url.ts). */
function publicOrigin(env: Env): string {
  try {
    return publicUrlFrom(env)
  } catch (error) {
    if (error instanceof PublicUrlError) throw new ConfigError(error.message)
    throw error
  }
}

export function readConfig(env: Env = process.env): Config {
  const nodeEnv = oneOf(env, 'NODE_ENV', ['development', 'production', 'test'] as const, 'development')
  const listenPort = port(env, 'PORT', 4321)
  const host = env.HOST?.trim() || '0.0.0.0'
  const publicUrl = publicOrigin(env)
  const mail = mailFrom(env)

  const stripeKeys = group(env, [
    'STRIPE_SECRET_KEY',
    'STRIPE_PUBLISHABLE_KEY',
    'STRIPE_WEBHOOK_SECRET',
  ] as const)
  if (stripeKeys && !/^sk_(test|live)_/.test(stripeKeys.STRIPE_SECRET_KEY)) {
    throw new ConfigError('STRIPE_SECRET_KEY must start with sk_test_ or sk_live_')
  }
  if (stripeKeys && !/^pk_(test|live)_/.test(stripeKeys.STRIPE_PUBLISHABLE_KEY)) {
    throw new ConfigError('STRIPE_PUBLISHABLE_KEY must start with pk_test_ or pk_live_')
  }
  if (stripeKeys && !stripeKeys.STRIPE_WEBHOOK_SECRET.startsWith('whsec_')) {
    throw new ConfigError('STRIPE_WEBHOOK_SECRET must start with whsec_')
  }
  const demoPayments = demoPaymentsFor(env, { nodeEnv, publicUrl, stripe: stripeKeys !== null })

  const googleKeys = group(env, ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'] as const)
  const googleIssuer = url(env, 'GOOGLE_ISSUER', 'https://accounts.google.com', ['https:', 'http:'])
  // Plain http is for a local stand-in provider only: in production the ID token must come over TLS.
  if (googleKeys && nodeEnv === 'production' && googleIssuer.startsWith('http:')) {
    throw new ConfigError('GOOGLE_ISSUER must be an https:// URL when NODE_ENV=production')
  }

  const passwordStrength = oneOf(env, 'PASSWORD_HASH', ['strong', 'test'] as const, 'strong')
  // Light hashes would let a stolen database's passwords be guessed quickly: never where real ones are kept.
  if (passwordStrength === 'test' && nodeEnv !== 'test') {
    throw new ConfigError('PASSWORD_HASH=test is for test runs only (NODE_ENV=test)')
  }

  return {
    nodeEnv,
    host,
    port: listenPort,
    publicUrl,
    databaseUrl: url(env, 'DATABASE_URL', 'file:./data/shop.db', [
      'file:',
      'libsql:',
      'http:',
      'https:',
      'ws:',
      'wss:',
    ]),
    databaseAuthToken: env.DATABASE_AUTH_TOKEN?.trim() || undefined,
    distDir: env.DIST_DIR?.trim() || './dist',
    dataDir: env.DATA_DIR?.trim() || './data',
    stripe: stripeKeys
      ? {
          secretKey: stripeKeys.STRIPE_SECRET_KEY,
          publishableKey: stripeKeys.STRIPE_PUBLISHABLE_KEY,
          webhookSecret: stripeKeys.STRIPE_WEBHOOK_SECRET,
        }
      : null,
    demoPayments,
    shippoApiKey: env.SHIPPO_API_KEY?.trim() || null,
    smtpUrl: env.SMTP_URL ? url(env, 'SMTP_URL', '', ['smtp:', 'smtps:']) : null,
    mailFrom: mail.mailFrom,
    messageIdDomain: isLoopbackHost(mail.domain) ? new URL(publicUrl).hostname : mail.domain,
    google: googleKeys
      ? {
          clientId: googleKeys.GOOGLE_CLIENT_ID,
          clientSecret: googleKeys.GOOGLE_CLIENT_SECRET,
          issuer: googleIssuer,
        }
      : null,
    trustedProxyHops: proxyHops(env),
    jobLeaseSeconds: seconds(env, 'JOB_LEASE_SECONDS', 300, { min: 5, max: 3600 }),
    eventLeaseSeconds: seconds(env, 'EVENT_LEASE_SECONDS', 60, { min: 5, max: 3600 }),
    jobConcurrency: count(env, 'JOB_CONCURRENCY', 4, { min: 1, max: 32 }),
    shutdownDrainSeconds: seconds(env, 'SHUTDOWN_DRAIN_SECONDS', 3, { min: 0, max: 120 }),
    jobRetrySeconds: seconds(env, 'JOB_RETRY_SECONDS', 30, { min: 1, max: 3600 }),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    shopTimeZone: timeZone(env, 'SHOP_TIME_ZONE', 'America/Chicago'),
    workers: count(env, 'WORKERS', nodeEnv === 'production' ? availableParallelism() : 1, {
      min: 1,
      max: 64,
    }),
    passwordStrength,
  }
}
