// What operators rely on: a JSON log line per request and a request id on every answer, liveness that
// needs nothing but the process, and readiness that needs the database with every migration applied.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createClient } from '@libsql/client'
import { sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/libsql'
import { captureLog, setLogLevel } from '../../../api/lib/log'
import { expectedMigrations } from '../../../db/client'
import * as schema from '../../../db/schema'
import { requestLinesWritten } from '../support/log-lines'
import { createTestApp, type TestApp } from '../support/test-app'

let shop: TestApp
beforeAll(async () => {
  shop = await createTestApp({ TRUST_PROXY: '1' })
})
afterAll(() => shop.close())

/** Runs `work` with the log at info level and returns the lines written meanwhile. */
async function logged(work: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const lines: string[] = []
  setLogLevel('info')
  const restore = captureLog((line) => lines.push(line))
  try {
    await work()
    await requestLinesWritten()
  } finally {
    restore()
    setLogLevel('silent')
  }
  for (const line of lines) expect(line.endsWith('\n') && !line.slice(0, -1).includes('\n')).toBe(true)
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>)
}

describe('request log', () => {
  test('one JSON line per request: id, method, path without the query, status and milliseconds', async () => {
    let res: Response | undefined
    const lines = await logged(async () => {
      res = await shop.call('GET', '/api/products?search=oil&token=abc123secret', undefined, {
        cookie: 'session=cookie-canary-value',
      })
    })
    const id = res?.headers.get('x-request-id')
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    const requests = lines.filter((line) => line.msg === 'request')
    expect(requests).toHaveLength(1)
    expect(requests[0]).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      level: 'info',
      msg: 'request',
      id,
      method: 'GET',
      path: '/api/products',
      status: res?.status,
      ms: expect.any(Number),
    })
    const text = JSON.stringify(lines)
    expect(text).not.toContain('abc123secret')
    expect(text).not.toContain('cookie-canary-value')
  })

  test('errors, refusals before routing and static pages are logged with their real status', async () => {
    const answers: Response[] = []
    const lines = await logged(async () => {
      answers.push(await shop.call('GET', '/api/orders/12345'))
      answers.push(
        await shop.call(
          'POST',
          '/api/newsletter/subscribe',
          { email: 'x@example.com' },
          {
            origin: 'https://elsewhere.example',
          },
        ),
      )
      answers.push(await shop.call('GET', '/'))
    })
    expect(answers.map((res) => res.status)).toEqual([401, 403, 200])
    const requests = lines.filter((line) => line.msg === 'request')
    expect(requests.map((line) => [line.path, line.status, line.id])).toEqual(
      answers.map((res, index) => [
        ['/api/orders/12345', '/api/newsletter/subscribe', '/'][index],
        res.status,
        res.headers.get('x-request-id'),
      ]),
    )
    expect(JSON.stringify(lines)).not.toContain('x@example.com')
  })

  test('a sign-in and a password reset never show the password, the token or the e-mail', async () => {
    const email = `log.${Date.now()}@example.com`
    const password = 'canary-password-shown-nowhere'
    const token = 'canaryresettoken'.repeat(3)
    const lines = await logged(async () => {
      await shop.call('POST', '/auth/register', { firstName: 'Lo', lastName: 'G', email, password })
      await shop.call('POST', '/api/auth/login', { email, password })
      await shop.call('POST', '/api/auth/login', { email, password: `${password}-wrong` })
      await shop.call('POST', '/api/auth/validate-reset-token', { token })
      await shop.call('POST', '/api/auth/reset-password', { token, password: `${password}-new` })
      await shop.call('GET', `/reset-password?token=${token}`)
      // An address in the path itself is blanked.
      await shop.call('GET', `/api/user/orders/${encodeURIComponent(email)}`)
    })
    expect(lines.filter((line) => line.msg === 'request')).toHaveLength(7)
    const text = JSON.stringify(lines)
    for (const secret of [password, token, email, encodeURIComponent(email)])
      expect(text).not.toContain(secret)
    expect(text).toContain('"path":"/reset-password"')
  })

  test('a request id from the proxy in front is kept; a malformed one is replaced', async () => {
    const kept = await shop.call('GET', '/api/health', undefined, { 'x-request-id': 'lb-7f3a.42' })
    expect(kept.headers.get('x-request-id')).toBe('lb-7f3a.42')
    const bad = await shop.call('GET', '/api/health', undefined, { 'x-request-id': 'bad id "quoted"' })
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  })

  test('without a trusted proxy, a sent request id is not taken', async () => {
    const direct = await createTestApp()
    try {
      const res = await direct.call('GET', '/api/health', undefined, { 'x-request-id': 'forged-id' })
      expect(res.headers.get('x-request-id')).not.toBe('forged-id')
    } finally {
      direct.close()
    }
  })
})

test('background jobs log JSON lines too: which job, what kind, which attempt, and why it failed', async () => {
  await shop.services.jobs.enqueue('no-such-job', { email: 'job.payload@example.com' })
  const lines = await logged(() => shop.runDueJobs())
  const failed = lines.find((line) => line.msg === 'job failed')
  expect(failed).toMatchObject({
    level: 'warn',
    type: 'no-such-job',
    attempt: 1,
    final: false,
    error: 'no handler for job type no-such-job',
  })
  expect(JSON.stringify(lines)).not.toContain('job.payload@example.com')
})

describe('health and readiness', () => {
  test('a migrated database is ready; health answers without asking it', async () => {
    const health = await shop.call('GET', '/api/health')
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ status: 'ok' })
    const ready = await shop.call('GET', '/api/ready')
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: 'ready' })
    expect(ready.headers.get('cache-control')).toBe('no-store')
  })

  test('a database without migrations is not ready: 503, Retry-After and why', async () => {
    const empty = await createTestApp({}, (base) => {
      const client = createClient({ url: `file:${base.config.dataDir}/empty.db` })
      return { db: drizzle(client, { schema }) }
    })
    try {
      const ready = await empty.call('GET', '/api/ready')
      expect(ready.status).toBe(503)
      expect(ready.headers.get('retry-after')).toBe('5')
      const body = (await ready.json()) as { error: string; status: string }
      expect(body.status).toBe('unavailable')
      expect(body.error).toContain(`lacks ${expectedMigrations().length} migration(s)`)
      expect(body.error).toContain('0000_foundation')
      expect((await empty.call('GET', '/api/health')).status).toBe(200)
    } finally {
      empty.close()
    }
  })

  test('one migration missing is named; a closed database is unreachable', async () => {
    const behind = await createTestApp()
    try {
      const last = expectedMigrations().at(-1)
      await behind.deps.db.run(sql`delete from __drizzle_migrations where created_at = ${last?.when}`)
      const ready = await behind.call('GET', '/api/ready')
      expect(ready.status).toBe(503)
      expect(((await ready.json()) as { error: string }).error).toBe(
        `The database lacks 1 migration(s): ${last?.tag}.`,
      )
    } finally {
      behind.close()
    }
    // close() closed the database: the process still answers, the instance is not ready.
    expect((await behind.call('GET', '/api/health')).status).toBe(200)
    const unreachable = await behind.call('GET', '/api/ready')
    expect(unreachable.status).toBe(503)
    expect(unreachable.headers.get('retry-after')).toBe('5')
    expect(((await unreachable.json()) as { error: string }).error).toBe('The database does not answer.')
  })
})
