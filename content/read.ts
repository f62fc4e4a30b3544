/**
 * Reads content files the way the site build does: the frontmatter with Astro's own parser, the fields with
 * the build's schemas (content/schema.ts), pictures as files next to the content. The API reads the product
 * files through `readProducts` at boot (in a child process: api/content-at-boot.ts) and content/check.ts
 * reads every file through `readCollection`, so a mistake in a product file gets one message everywhere:
 * the file, the line, the field and the fix.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, extname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseFrontmatter } from '@astrojs/internal-helpers/frontmatter'
import { type ZodType, z } from 'astro/zod'
import {
  describeContentIssues,
  fieldsOf,
  pageSchema,
  policySchema,
  productSchema,
  slugify,
  teaserSchema,
} from './schema'

/** The repository's root: content/ and site/ are below it. */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))

export interface ContentProblem {
  /** The file, as a path from the repository root when it is inside it. */
  file: string
  line?: number
  message: string
}

/** MDX collections: a folder of .mdx files each. Pages, policies and teasers are pages at /<file name>. */
export const MDX_COLLECTIONS = ['products', 'pages', 'policies', 'teasers'] as const
export type MdxCollection = (typeof MDX_COLLECTIONS)[number]

/** Picture formats the site can show (Astro's image pipeline). */
export const IMAGE_FORMATS = ['.svg', '.png', '.jpg', '.jpeg', '.webp', '.avif'] as const

/** A content file read and checked; `data` holds its fields, pictures as absolute file paths. */
export interface ContentEntry<Data = Record<string, unknown>> {
  collection: MdxCollection
  /** The file name without .mdx: the page's address for pages, policies and teasers. */
  id: string
  /** Absolute path. */
  path: string
  data: Data
  draft: boolean
}

type PictureSchema = ZodType<string>
export type ProductData = z.output<ReturnType<typeof productSchema<PictureSchema>>>
export type PageData = z.output<ReturnType<typeof pageSchema<PictureSchema>>>
export type TeaserData = z.output<ReturnType<typeof teaserSchema<PictureSchema>>>
export type PolicyData = z.output<typeof policySchema>

export function displayPath(path: string, root: string = REPO_ROOT): string {
  const inside = relative(root, path)
  return inside.startsWith('..') ? path : inside.split('\\').join('/')
}

/** A picture path in the frontmatter: relative to the file, one of the formats above, and there. */
function pictureAt(fileDir: string): PictureSchema {
  return z
    .string({ error: 'must be the path of a picture, like ../../site/assets/products/my-product.svg' })
    .transform((value, context) => {
      const path = resolve(fileDir, value.trim())
      const format = extname(path).toLowerCase()
      if (!(IMAGE_FORMATS as readonly string[]).includes(format)) {
        context.addIssue({
          code: 'custom',
          message: `"${value}" is not a picture the site can show: use a file ending in ${IMAGE_FORMATS.join(', ')}`,
        })
      } else if (!existsSync(path)) {
        context.addIssue({
          code: 'custom',
          message: `"${value}" was not found: the path starts from this file's folder, like ../../site/assets/products/whisker-oil.svg`,
        })
      }
      return path
    })
}

function schemaFor(collection: MdxCollection, fileDir: string): ZodType {
  const picture = () => pictureAt(fileDir)
  if (collection === 'products') return productSchema(picture)
  if (collection === 'pages') return pageSchema(picture)
  if (collection === 'teasers') return teaserSchema(picture)
  return policySchema
}

/** js-yaml's reason, with the fix for the mistakes editors make most. */
function yamlHint(reason: string, lineText: string): string {
  if (/bad indentation of a mapping entry/.test(reason) && /:\s.*:\s/.test(lineText)) {
    return 'this text holds a colon followed by a space, which YAML reads as a new field: put the whole text in double quotes'
  }
  if (/within a (double|single) quoted scalar/.test(reason)) {
    return 'a quote mark is opened and never closed: close it at the end of the text'
  }
  if (/bad indentation/.test(reason)) {
    return 'the indentation is off: fields start at the left edge, list items ("- ") and wrapped text two spaces in'
  }
  if (/duplicated mapping key/.test(reason)) return 'this field is written twice: keep one'
  return `the frontmatter could not be read (${reason})`
}

/** The frontmatter as the build reads it (Astro's own parser), or the problem that stops it. */
function readFrontmatter(
  path: string,
  text: string,
  root: string,
): { data: Record<string, unknown> } | ContentProblem {
  const file = displayPath(path, root)
  if (!/^\uFEFF?---\r?\n/.test(text)) {
    return {
      file,
      line: 1,
      message:
        'no frontmatter: the file must start with a line of three dashes (---), its fields, and another ---',
    }
  }
  try {
    const { frontmatter, rawFrontmatter } = parseFrontmatter(text)
    if (!rawFrontmatter) {
      return {
        file,
        line: 1,
        message: 'the frontmatter is not closed: add a line of three dashes (---) after the last field',
      }
    }
    return { data: frontmatter }
  } catch (error) {
    const mark = (error as { mark?: { line?: number } }).mark
    const reason = (error as { reason?: string }).reason ?? String(error)
    // The frontmatter text starts on the line of the opening ---, so its line n (from 0) is the file's n + 1.
    const line = mark?.line !== undefined ? mark.line + 1 : undefined
    const lineText = line ? (text.split(/\r?\n/)[line - 1] ?? '') : ''
    return { file, ...(line ? { line } : {}), message: yamlHint(reason, lineText) }
  }
}

/**
 * A policy's `updated:` date as written: a day that does not exist (2026-02-30, which the YAML reader would
 * roll over to March 2) or one after today would be published as the policy's date. Null when it is right,
 * or not written as a date at all (the schema says so then).
 */
export function policyDateProblem(text: string, today: Date = new Date()): string | null {
  const written = /^updated:\s*['"]?(\d{4})-(\d{2})-(\d{2})['"]?\s*$/m.exec(text)
  if (!written) return null
  const [year, month, day] = written.slice(1).map(Number) as [number, number, number]
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return `updated: ${written.slice(1).join('-')} is not a day of the calendar: write the day the policy last changed, like 2025-06-15`
  }
  if (date.toISOString().slice(0, 10) > today.toISOString().slice(0, 10)) {
    return `updated: ${written.slice(1).join('-')} is after today: write the day the policy last changed`
  }
  return null
}

/** The line a top-level field is written on, so a message can point at it. */
function lineOf(text: string, field: string | undefined): number | undefined {
  if (!field) return undefined
  const index = text.split(/\r?\n/).findIndex((line) => line.startsWith(`${field}:`))
  return index >= 0 ? index + 1 : undefined
}

function mdxFiles(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((name) => ['.mdx', '.md'].includes(extname(name)))
    .sort()
    .map((name) => join(dir, name))
}

export interface CollectionRead {
  entries: ContentEntry[]
  /** Files with a problem in their fields: their address (file name) and slug, as written, if readable. */
  rejected: { id: string; slug?: unknown }[]
  problems: ContentProblem[]
  /** How many files were read. */
  checked: number
}

/** One collection's files with their fields checked; messages name files from `root`. */
export function readCollection(
  collection: MdxCollection,
  dir: string,
  root: string = REPO_ROOT,
): CollectionRead {
  const read: CollectionRead = { entries: [], rejected: [], problems: [], checked: 0 }
  for (const path of mdxFiles(dir)) {
    read.checked += 1
    const file = displayPath(path, root)
    const id = basename(path, extname(path))
    if (extname(path) === '.md') {
      read.problems.push({ file, message: `rename it to ${id}.mdx: content files end in .mdx` })
      continue
    }
    const text = readFileSync(path, 'utf8')
    const front = readFrontmatter(path, text, root)
    if ('message' in front) {
      read.problems.push(front)
      // Its slug as written (else its file name, as products are named), so a card or link naming it is not
      // reported as well, pointing the editor at the wrong file.
      const slug = /^slug:\s*['"]?([^'"\s#]+)/m.exec(text)?.[1] ?? id
      read.rejected.push({ id, slug })
      continue
    }
    if (collection !== 'products' && id !== slugify(id)) {
      read.problems.push({
        file,
        message: `the file name is the page's address, so it may only hold lower-case letters, digits and dashes: rename it to ${slugify(id) || 'my-page'}.mdx`,
      })
    }
    const schema = schemaFor(collection, dirname(path))
    const parsed = schema.safeParse(front.data)
    if (!parsed.success) {
      const lines = describeContentIssues(parsed.error, fieldsOf(schema))
      parsed.error.issues.forEach((issue, index) => {
        const field = issue.code === 'unrecognized_keys' ? issue.keys[0] : issue.path[0]
        const line = lineOf(text, typeof field === 'string' ? field : undefined)
        for (const message of (lines[index] ?? '').split('\n')) {
          read.problems.push({ file, ...(line ? { line } : {}), message })
        }
      })
      read.rejected.push({ id, slug: front.data.slug })
      continue
    }
    const data = parsed.data as Record<string, unknown>
    const datedWrong = collection === 'policies' ? policyDateProblem(text) : null
    if (datedWrong) {
      read.problems.push({
        file,
        ...(lineOf(text, 'updated') ? { line: lineOf(text, 'updated') } : {}),
        message: datedWrong,
      })
      read.rejected.push({ id })
      continue
    }
    read.entries.push({ collection, id, path, data, draft: data.draft === true })
  }
  return read
}

/** Runs git in `root` and answers what it printed; null without git, outside a repository, or when it fails. */
export function git(root: string, args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
  } catch {
    return null
  }
}

/** Whether git has the file committed (false without git, or outside a repository). Asked only of duplicates. */
function committed(path: string, root: string): boolean {
  return git(root, ['cat-file', '-e', `HEAD:${relative(root, path)}`]) !== null
}

/**
 * Two products may not share an id or a slug: orders and addresses would mix them up. The file changed last
 * is the one named, as it is the copy someone is making: the original keeps its number and address.
 */
export function duplicateProducts(
  entries: readonly ContentEntry[],
  root: string = REPO_ROOT,
): ContentProblem[] {
  const problems: ContentProblem[] = []
  const nextId = Math.max(0, ...entries.map((entry) => Number(entry.data.id) || 0)) + 1
  const changed = (entry: ContentEntry) => statSync(entry.path).mtimeMs
  const byAge = [...entries].sort((a, b) => changed(a) - changed(b) || a.path.localeCompare(b.path))
  for (const field of ['id', 'slug'] as const) {
    const seen = new Map<string, ContentEntry>()
    for (const entry of byAge) {
      const value = String(entry.data[field])
      const earlier = seen.get(value)
      if (!earlier) {
        seen.set(value, entry)
        continue
      }
      // The copy is the file git does not know yet; failing that, the one changed last. A clone or a pull
      // gives every file the same age, and the message must not send the editor to renumber the original.
      const [original, copy] =
        committed(entry.path, root) && !committed(earlier.path, root) ? [entry, earlier] : [earlier, entry]
      problems.push({
        file: displayPath(copy.path, root),
        message: `${field}: ${displayPath(original.path, root)} already has ${field} ${value}: give this product ${field === 'id' ? `a number no other product has, like ${nextId}` : 'a slug of its own'}`,
      })
    }
  }
  return problems
}

/** Product files only, as the API reads them at boot: their fields, and that ids and slugs are unique. */
export function readProducts(dir: string): {
  entries: ContentEntry<ProductData>[]
  problems: ContentProblem[]
} {
  const read = readCollection('products', dir)
  return {
    entries: read.entries as ContentEntry<ProductData>[],
    problems: [...read.problems, ...duplicateProducts(read.entries)],
  }
}

/** 'content/products/x.mdx, line 7: price: write it …', one problem a line. */
export function formatProblems(problems: readonly ContentProblem[]): string {
  return problems
    .map((problem) => `${problem.file}${problem.line ? `, line ${problem.line}` : ''}: ${problem.message}`)
    .join('\n')
}
