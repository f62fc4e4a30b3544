import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'

/** How content files name their pictures: relative to their own folder, in site/assets. */
const ASSETS_AS_WRITTEN = '../../site/assets'

/**
 * A content file's text, ready to be written to another folder: its pictures named by their full path,
 * which the schema accepts too, so a test's copy reads as the original does.
 */
export function contentFileForElsewhere(file: string): string {
  return readFileSync(file, 'utf8').replaceAll(ASSETS_AS_WRITTEN, resolve(dirname(file), ASSETS_AS_WRITTEN))
}
