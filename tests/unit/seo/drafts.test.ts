import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { REPO_ROOT } from '../../../content/read'
import { isPublished } from '../../../content/schema'

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? sources(full) : /\.(astro|ts|tsx)$/.test(name) ? [full] : []
  })
}

describe('drafts', () => {
  test('shown by npm run dev, left out of the build', () => {
    expect(isPublished({ draft: true }, { drafts: true })).toBe(true)
    expect(isPublished({ draft: true }, { drafts: false })).toBe(false)
    expect(isPublished({ draft: false }, { drafts: false })).toBe(true)
    expect(isPublished({}, { drafts: false })).toBe(true)
  })

  test('every page reads products, pages, policies and teasers through site/lib/content.ts, which leaves drafts out', () => {
    const editable = /\b(getCollection|getEntry|getEntries)\(\s*['"](products|pages|policies|teasers)['"]/
    const offenders = sources(join(REPO_ROOT, 'site'))
      .filter((file) => !file.endsWith(join('site', 'lib', 'content.ts')))
      .filter((file) => editable.test(readFileSync(file, 'utf8')))
      .map((file) => relative(REPO_ROOT, file))
    expect(offenders).toEqual([])
  })
})
