import { type ProfileAddress, USER_ROLES } from '@core/rules/account'
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * Customer (and staff) accounts, owned by the account module; sessions and reset links are in auth.ts. The
 * e-mail is stored lower-cased so one person has one account whatever the capitals. An account made
 * through Google has no password hash: it signs in with Google only.
 */
export const users = sqliteTable('users', {
  /** Random, never sequential: ids appear in orders and must not reveal how many customers there are. */
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  /** Argon2id (Bun.password), or null for an account that signs in with Google. */
  passwordHash: text('password_hash'),
  /** Google's stable subject id once the account has signed in with Google. */
  googleSubject: text('google_subject').unique(),
  firstName: text('first_name').notNull().default(''),
  lastName: text('last_name').notNull().default(''),
  phone: text('phone').notNull().default(''),
  photoUrl: text('photo_url'),
  /** The saved shipping address, or null when the customer has none. */
  address: text('address', { mode: 'json' }).$type<ProfileAddress>(),
  notifyByEmail: integer('notify_by_email', { mode: 'boolean' }).notNull().default(true),
  notifyBySms: integer('notify_by_sms', { mode: 'boolean' }).notNull().default(false),
  role: text('role', { enum: USER_ROLES }).notNull().default('customer'),
  /**
   * When the owner of the address proved it (a verification link, a used reset link, or Google's verified
   * claim); null while nobody has. An unproved account's password and sessions are not trusted when it is
   * made staff or linked to Google (docs/decisions/016-verified-e-mail.md).
   */
  emailVerifiedAt: integer('email_verified_at', { mode: 'timestamp_ms' }),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
})
