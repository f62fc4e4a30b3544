import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/** Fixed-window counters, kept in the database so every server instance shares them. */
export const rateLimits = sqliteTable(
  'rate_limits',
  {
    bucket: text('bucket').notNull(),
    windowStart: integer('window_start').notNull(),
    count: integer('count').notNull(),
  },
  (table) => [primaryKey({ columns: [table.bucket, table.windowStart] })],
)
