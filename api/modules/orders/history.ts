import { sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { orders } from '../../../db/schema/orders'

/** Whether this e-mail has ever placed a paid order (orders exist only once payment is confirmed). */
export async function hasPaidOrder(db: Database, email: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(orders)
    .where(sql`lower(${orders.email}) = ${email.trim().toLowerCase()}`)
    .limit(1)
  return row !== undefined
}
