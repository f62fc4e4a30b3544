/**
 * What a deleted account's orders keep of an address (docs/decisions/018-account-data.md): the state, the
 * country and the first three characters of the postal code (a US ZIP3 area, a Canadian FSA), which place a
 * sale for sales tax and the accounts without pointing at a street. Name, street, second line and city
 * become empty; the shape stays a ShippingAddress so every reader of the column still works.
 *
 * It is SQL so the change runs inside the deletion's batch on whatever rows match then, never on a copy
 * read a moment before.
 */
import { type SQL, sql } from 'drizzle-orm'
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core'

export const POSTAL_PREFIX_LENGTH = 3

/** The minimised form of the JSON address stored in `column`. */
export function minimisedAddressSql(column: SQLiteColumn): SQL<string> {
  const field = (name: string) => sql`coalesce(json_extract(${column}, ${`$.${name}`}), '')`
  return sql<string>`json_object(
    'name', '', 'street1', '', 'city', '',
    'state', ${field('state')},
    'zip', upper(substr(trim(${field('zip')}), 1, ${POSTAL_PREFIX_LENGTH})),
    'country', ${field('country')}
  )`
}
