import { loadCatalogFromContent, PRODUCT_CONTENT_DIR } from '../api/modules/catalog/content'
import { syncCatalog } from '../api/modules/catalog/service'
import { seedDiscountCodes } from '../api/modules/discounts/seed'
import type { Database } from './client'

/** Brings reference data up to date; safe to run at every start. */
export async function seedDatabase(db: Database, now: Date = new Date()): Promise<void> {
  await syncCatalog(db, loadCatalogFromContent(PRODUCT_CONTENT_DIR), now)
  await seedDiscountCodes(db, now)
}
