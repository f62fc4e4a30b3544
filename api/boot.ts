import type { Database } from '../db/client'
import type { ContentProduct } from './modules/catalog/content'
import { syncCatalog } from './modules/catalog/service'
import { seedDiscountCodes } from './modules/discounts/seed'

/**
 * Brings reference data up to date before the shop opens; safe at every start. `products` are the product
 * files as read at boot (the server: api/content-at-boot.ts): the catalogue service reads the synced rows
 * from then on.
 */
export async function prepareData(
  db: Database,
  products: ContentProduct[],
  now: Date = new Date(),
): Promise<void> {
  await syncCatalog(db, products, now)
  await seedDiscountCodes(db, now)
}
