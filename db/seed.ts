import type { Database } from './client'

/**
 * Brings reference data up to date: safe to run at every start. Each domain adds its own seeding step here
 * (catalogue from content/, discount codes).
 */
export async function seedDatabase(_db: Database): Promise<void> {}
