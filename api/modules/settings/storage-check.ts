import { randomBytes } from 'node:crypto'
import { unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { settings } from '../../../db/schema/settings'

/** The scratch row's name in `settings`: written and removed at once, so it is never seen. */
const SCRATCH = 'storage-check'
/** Larger than a database page, so the write needs pages of its own, as an order's would. */
const SCRATCH_BYTES = 8 * 1024

/**
 * Whether the shop can write again after a write failed for want of room: a scratch row in the database
 * and a scratch file in the data folder (labels, the outbox), each written and removed. Any failure is
 * false; the caller keeps saying the disk is full.
 */
export async function canWriteAgain(db: Database, dataDir: string): Promise<boolean> {
  const scratch = randomBytes(SCRATCH_BYTES / 2).toString('hex')
  try {
    await db
      .insert(settings)
      .values({ name: SCRATCH, value: scratch, createdAt: new Date() })
      .onConflictDoUpdate({ target: settings.name, set: { value: scratch } })
    await db.delete(settings).where(eq(settings.name, SCRATCH))
    const file = join(dataDir, `.${SCRATCH}-${process.pid}`)
    try {
      await writeFile(file, scratch)
    } finally {
      await unlink(file).catch(() => undefined)
    }
    return true
  } catch {
    return false
  }
}
