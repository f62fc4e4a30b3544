import { sql } from 'drizzle-orm'
import { Elysia } from 'elysia'
import { type Database, pendingMigrations } from '../../../db/client'
import { lifecycle } from '../../lib/lifecycle'
import { storage } from '../../lib/storage-full'
import { jsonError } from '../../plugins/errors'
import { canWriteAgain } from '../settings/storage-check'

/** How long a load balancer should wait before asking /api/ready again. */
const READY_RETRY_SECONDS = 5

/**
 * /api/health says the process answers (liveness: restart it when this fails); it touches nothing else, so
 * a slow database never gets a healthy process killed. /api/ready says this instance can serve orders
 * (readiness: send it traffic): the database answers and has every migration this code expects, and,
 * after a write failed because the disk was full, a trial write succeeds again.
 */
export function healthRoutes(db: Database, options: { dataDir: string }) {
  return new Elysia()
    .get(
      '/api/health',
      ({ set }) => {
        set.headers['cache-control'] = 'no-store'
        return { status: 'ok' }
      },
      { detail: { summary: 'Liveness: 200 while the process answers', tags: ['Operations'] } },
    )
    .get(
      '/api/ready',
      async ({ set }) => {
        set.headers['cache-control'] = 'no-store'
        const notReady = (reason: string) =>
          jsonError(503, reason, { status: 'unavailable' }, { 'retry-after': String(READY_RETRY_SECONDS) })
        if (lifecycle.draining) return notReady('This instance is shutting down.')
        // A write failed for want of room: ready again only once a trial write succeeds.
        if (storage.full) {
          if (!(await canWriteAgain(db, options.dataDir))) {
            return notReady('The disk is full: the shop cannot save anything.')
          }
          storage.full = false
        }
        try {
          await db.run(sql`select 1`)
        } catch {
          return notReady('The database does not answer.')
        }
        let pending: string[]
        try {
          pending = await pendingMigrations(db)
        } catch {
          return notReady('The database does not answer.')
        }
        if (pending.length > 0) {
          return notReady(`The database lacks ${pending.length} migration(s): ${pending.join(', ')}.`)
        }
        return { status: 'ready' }
      },
      {
        detail: {
          summary: 'Readiness: 200 when the database answers and is migrated, else 503',
          tags: ['Operations'],
        },
      },
    )
}
