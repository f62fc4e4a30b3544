import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

export const newsletterSubscribers = sqliteTable('newsletter_subscribers', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  /** Stored lower-cased so one person subscribes once whatever the capitals. */
  email: text('email').notNull().unique(),
  /** Where the sign-up came from: footer, home, shop, supply-drop. */
  source: text('source').notNull(),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
})
