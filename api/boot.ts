import type { Database } from '../db/client'
import { loadCatalogFromContent } from './modules/catalog/content'
import { syncCatalog } from './modules/catalog/service'
import { seedDiscountCodes } from './modules/discounts/seed'

/**
 * Brings reference data up to date before the shop opens; safe at every start. The product files are read
 * once, here: the catalogue service reads the synced rows from then on.
 */
export async function prepareData(db: Database, now: Date = new Date()): Promise<void> {
  await syncCatalog(db, loadCatalogFromContent(), now)
  await seedDiscountCodes(db, now)
}
