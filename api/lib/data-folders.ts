import { resolve } from 'node:path'

/**
 * Where the built-in carrier keeps its PDF labels under DATA_DIR. The carrier writes them; the orders
 * module serves them to staff from here and nowhere else, so neither reads the other's code for the path.
 */
export function labelsDirFor(dataDir: string): string {
  return resolve(dataDir, 'labels')
}
