import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * Values the shop makes for itself once and every instance must share, such as the key that signs
 * shipping quotes. The first instance to start writes a value; every other one reads that same value.
 */
export const settings = sqliteTable('settings', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
})
