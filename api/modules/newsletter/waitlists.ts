import { resolve } from 'node:path'
import { readCollection } from '../../../content/read'
import { isPublished } from '../../../content/schema'

/** content/teasers: the 'coming soon' pages, some with a waitlist form. */
export const TEASER_CONTENT_DIR = resolve(import.meta.dir, '../../../content/teasers')

/**
 * The published teasers with `waitlist: true`, by file name: the source their waitlist form sends. Read at
 * boot from the files the site is built from, so a teaser an editor adds has a working form. A teaser file
 * with a mistake is left out here; the build and `npm run check:content` name the mistake.
 */
export function waitlistsFromContent(dir: string = TEASER_CONTENT_DIR): string[] {
  return readCollection('teasers', dir)
    .entries.filter((entry) => entry.data.waitlist === true && isPublished(entry, { drafts: false }))
    .map((entry) => entry.id)
    .sort()
}
