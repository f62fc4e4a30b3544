import { sql } from 'drizzle-orm'
import { Elysia } from 'elysia'
import type { Database } from '../../../db/client'

/** For load balancers and uptime checks: answers 200 only when the database answers too. */
export function healthRoutes(db: Database) {
  return new Elysia().get(
    '/api/health',
    async ({ set }) => {
      set.headers['cache-control'] = 'no-store'
      await db.run(sql`select 1`)
      return { status: 'ok' }
    },
    { detail: { summary: 'Health check: 200 when the database answers', tags: ['Operations'] } },
  )
}
