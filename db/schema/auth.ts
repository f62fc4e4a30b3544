import { SIGN_IN_METHODS } from '@core/rules/account'
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { users } from './users'

/**
 * Signed-in browsers. The browser holds a random token; only its SHA-256 is stored, so a copy of this
 * table (a backup, a leaked replica) cannot be used to sign in as anyone.
 */
export const sessions = sqliteTable(
  'sessions',
  {
    /** Hex SHA-256 of the token in the `session` cookie. */
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    /** When the browser signed in: renewal moves `expiresAt` only, so this stays the sign-in time. */
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    /**
     * How it signed in ('password' for a sign-up or password sign-in, 'google'). Deleting an account without
     * a password asks for a Google sign-in in the last minutes; null for sessions older than this column.
     */
    signedInWith: text('signed_in_with', { enum: SIGN_IN_METHODS }),
  },
  (table) => [
    index('sessions_user_id_idx').on(table.userId),
    index('sessions_expires_at_idx').on(table.expiresAt),
  ],
)

/** Password reset links: the token is e-mailed, only its SHA-256 is kept; one use, one hour. */
export const passwordResetTokens = sqliteTable(
  'password_reset_tokens',
  {
    /** Hex SHA-256 of the token in the e-mailed link. */
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [index('password_reset_tokens_user_id_idx').on(table.userId)],
)

/**
 * E-mail verification links: the token is e-mailed, only its SHA-256 is kept; one use, 24 hours. A used
 * link keeps its row (with `usedAt`) until it runs out, so a second click can be told "already used".
 */
export const emailVerificationTokens = sqliteTable(
  'email_verification_tokens',
  {
    /** Hex SHA-256 of the token in the e-mailed link. */
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The address the link was sent to: it proves that address, and no other the account may hold later. */
    email: text('email').notNull(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    usedAt: integer('used_at', { mode: 'timestamp_ms' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [index('email_verification_tokens_user_id_idx').on(table.userId)],
)

/**
 * Password sign-in attempts that have not succeeded, for the brute-force limit (10 in 10 minutes per
 * account and per client address). In the database, so every server instance counts the same attempts.
 */
export const signInFailures = sqliteTable(
  'sign_in_failures',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** The lower-cased e-mail tried, whether or not an account has it. */
    account: text('account').notNull(),
    /** The client address the attempt came from. */
    address: text('address').notNull(),
    /** Epoch milliseconds. */
    at: integer('at').notNull(),
  },
  (table) => [
    index('sign_in_failures_account_idx').on(table.account, table.at),
    index('sign_in_failures_address_idx').on(table.address, table.at),
  ],
)
