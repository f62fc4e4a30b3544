import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { settings } from '../../../db/schema/settings'

/**
 * A random key made at first need and kept in the database, so every instance of the shop signs and
 * checks with the same one and a restart keeps what was signed before it valid. Of two instances starting
 * at once, the first insert wins and both read the winner's key.
 */
export async function sharedSecret(db: Database, name: string, now: Date): Promise<Buffer> {
  await db
    .insert(settings)
    .values({ name, value: randomBytes(32).toString('base64url'), createdAt: now })
    .onConflictDoNothing({ target: settings.name })
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.name, name))
  if (!row) throw new Error(`setting ${name} could not be stored`)
  return Buffer.from(row.value, 'base64url')
}
