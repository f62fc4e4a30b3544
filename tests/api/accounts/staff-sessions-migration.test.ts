// The migration that has staff sign in again once: a staff password shorter than the staff rule now opens
// nothing (tests/api/accounts/password-reset.test.ts), so the sessions such a password may have opened end
// at the upgrade. Customers' sessions and staff's Google sign-ins stay.
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { drizzle } from 'drizzle-orm/libsql'
import { migrate } from 'drizzle-orm/libsql/migrator'
import { migrationsFolder } from '../../../db/client'
import { migrationsBefore } from '../support/migrations'

const dir = mkdtempSync(join(tmpdir(), 'staff-sessions-migration-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test("staff's password sessions end at the upgrade; customers' sessions and staff's Google sign-ins stay", async () => {
  const client = createClient({ url: `file:${join(dir, 'shop.db')}` })
  const db = drizzle(client)
  await migrate(db, { migrationsFolder: migrationsBefore(dir, 'DELETE FROM `sessions`') })
  const accounts: [string, string][] = [
    ['staff-1', 'staff'],
    ['customer-1', 'customer'],
  ]
  for (const [id, role] of accounts) {
    await client.execute({
      sql: `insert into users (id, email, password_hash, role, created_at, updated_at)
            values (?, ?, 'hash', ?, 1, 1)`,
      args: [id, `${id}@example.com`, role],
    })
  }
  const sessions: [string, string, string | null][] = [
    ['staff-password', 'staff-1', 'password'],
    ['staff-before-the-column', 'staff-1', null],
    ['staff-google', 'staff-1', 'google'],
    ['customer-password', 'customer-1', 'password'],
    ['customer-before-the-column', 'customer-1', null],
  ]
  for (const [id, userId, signedInWith] of sessions) {
    await client.execute({
      sql: `insert into sessions (id, user_id, expires_at, created_at, signed_in_with) values (?, ?, 9e15, 1, ?)`,
      args: [id, userId, signedInWith],
    })
  }

  await migrate(db, { migrationsFolder })
  const left = await client.execute('select id from sessions order by id')
  expect(left.rows.map((row) => row.id)).toEqual([
    'customer-before-the-column',
    'customer-password',
    'staff-google',
  ])
  client.close()
})
