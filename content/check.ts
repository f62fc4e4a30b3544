/**
 * Checks every content file without building the site, in well under a second: the fields (content/read.ts),
 * the MDX text with the parser the build uses, the components and pictures it uses, links to other pages of
 * the shop, and what must be unique (product ids and slugs, page addresses). `npm run check:content` prints
 * what it finds, and the build runs it first and stops on the same messages (astro.config.mjs).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { mdxToMdast } from 'satteri'
import { isIndexable } from '../core/rules/indexing'
import {
  type ContentEntry,
  type ContentProblem,
  displayPath,
  duplicateProducts,
  git,
  MDX_COLLECTIONS,
  type MdxCollection,
  REPO_ROOT,
  readCollection,
} from './read'
import { describeContentIssues, isPublished, quoteSchema, reasonSchema, researchSchema } from './schema'

/** Components a content file may use in its text; content/pages files get the page sections. */
export const PAGE_COMPONENTS = [
  'ButtonLink',
  'CardGrid',
  'IngredientCard',
  'QuoteList',
  'Section',
  'ValueCard',
] as const
const COMPONENTS: Record<MdxCollection, readonly string[]> = {
  products: [],
  pages: PAGE_COMPONENTS,
  policies: [],
  teasers: [],
}

const JSON_FILES = [
  { file: 'quotes.json', what: 'quote', schema: quoteSchema },
  { file: 'research.json', what: 'research claim', schema: researchSchema },
  { file: 'why-choose-us.json', what: 'reason', schema: reasonSchema },
] as const

interface MdxNode {
  type: string
  /** A `{…}` expression's code. */
  value?: string
  name?: string | null
  url?: string
  alt?: string | null
  attributes?: { type: string; name?: string; value?: unknown }[]
  position?: { start: { line: number } }
  children?: MdxNode[]
}

/**
 * The names a `{…}` expression's code refers to: MDX runs that code when the page is built, and content
 * files define nothing, so any name (but true, false, null) is a mistake the build would stop on with a
 * stack trace. Quoted text and comments are left out; numbers, text and lists of them are fine.
 */
export function namesInExpression(code: string): string[] {
  const bare = code
    .replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ' ')
    .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\$]|\\.)*`/g, ' ')
    .replace(/\b\d[\w.]*/g, ' ')
  return (bare.match(/[A-Za-z_$][\w$]*/g) ?? []).filter((name) => !['true', 'false', 'null'].includes(name))
}

function* walk(node: MdxNode): Generator<MdxNode> {
  yield node
  for (const child of node.children ?? []) yield* walk(child)
}

interface BodyFacts {
  problems: ContentProblem[]
  /** Site paths the text links to, checked once every page is known. */
  links: { path: string; line?: number }[]
  /** Product slugs IngredientCards name. */
  productCards: { slug: string; line?: number }[]
}

/** The MDX text: it parses as the build parses it, uses only the components it may, and its pictures exist. */
/** HTML elements the built site's security policy blocks, or that would run code in the shop's name. */
const BLOCKED_ELEMENTS = new Set([
  'script',
  'iframe',
  'embed',
  'object',
  'style',
  'link',
  'meta',
  'form',
  'frame',
])

/** Where a written link may go: a page of the shop (/…), a place on the page (#…), another site, an inbox, a phone. */
const FOLLOWABLE = /^(\/|#|https?:\/\/|mailto:|tel:)/i

/**
 * What the preview shows but the built site does not (its security policy allows the shop's own scripts,
 * pictures and frames only), or what a shopper's browser could not follow: each said with what to write
 * instead. `npm run dev` sends no such policy, so only this check tells the editor before it is published.
 */
function blockedOnTheSite(node: MdxNode, file: string): ContentProblem[] {
  const at = node.position?.start.line ? { line: node.position.start.line } : {}
  const problems: ContentProblem[] = []
  const say = (message: string) => problems.push({ file, ...at, message })
  const isElement = node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement'
  if (isElement && node.name && BLOCKED_ELEMENTS.has(node.name.toLowerCase())) {
    say(
      `<${node.name}> does not work on the shop's pages (their security policy blocks it): write the text in Markdown, or ask a developer to add a component for it`,
    )
  }
  for (const attribute of isElement ? (node.attributes ?? []) : []) {
    if (typeof attribute.name === 'string' && /^on/i.test(attribute.name)) {
      say(`${attribute.name}= runs code, which the shop's pages do not allow: take it out`)
    }
  }
  if (node.type === 'image' && node.url && /^(https?:)?\/\//i.test(node.url)) {
    say(
      `picture "${node.url}" is on another site, which the shop's pages do not show: save it in site/assets/ and point to it from this file's folder`,
    )
  }
  if (node.type === 'link' && node.url !== undefined) {
    const url = node.url.trim()
    if (/^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:|\/|$)/i.test(url)) {
      say(
        `the link to ${url} goes to a preview on this computer: write the page's address from its /, like ${url.replace(/^https?:\/\/[^/]+/i, '') || '/'}`,
      )
    } else if (!FOLLOWABLE.test(url)) {
      say(
        `the link to ${url} is not an address a browser can follow from every page: start it with / for a page of the shop (/shipping-policy), https:// for another site, or mailto: for an e-mail address`,
      )
    }
  }
  return problems
}

function checkBody(entry: ContentEntry, root: string): BodyFacts {
  const file = displayPath(entry.path, root)
  const facts: BodyFacts = { problems: [], links: [], productCards: [] }
  let tree: MdxNode
  try {
    tree = mdxToMdast(readFileSync(entry.path, 'utf8')) as MdxNode
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const match = /^(\d+):(\d+): (.*?)(?: \(\d+:\d+\))?(?: \([\w:-]+\))?$/.exec(message)
    const reason = match?.[3] ?? message
    facts.problems.push({
      file,
      ...(match ? { line: Number(match[1]) } : {}),
      message: `the text could not be read: ${reason}. In MDX, < and { start a component or a code expression: write &lt; or \\{ for the character itself, and close every <Component> with </Component>`,
    })
    return facts
  }
  const allowed = COMPONENTS[entry.collection]
  for (const node of walk(tree)) {
    const line = node.position?.start.line
    const at = line ? { line } : {}
    const isElement = node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement'
    const expressions =
      node.type === 'mdxTextExpression' || node.type === 'mdxFlowExpression'
        ? [node.value ?? '']
        : (node.attributes ?? []).flatMap((attribute) => {
            const value = attribute.value as { type?: string; value?: string } | null | undefined
            return value?.type === 'mdxJsxAttributeValueExpression' ? [value.value ?? ''] : []
          })
    for (const code of expressions) {
      const [name] = namesInExpression(code)
      if (name) {
        facts.problems.push({
          file,
          ...at,
          message: `{${code.trim().slice(0, 40)}} names "${name}", which this file does not have: in MDX, { starts a code expression. Write \\{ for the brace itself, or put the words in plain text`,
        })
      }
    }
    if (isElement && node.name && /^[A-Z]/.test(node.name)) {
      if (!allowed.includes(node.name)) {
        facts.problems.push({
          file,
          ...at,
          message: allowed.length
            ? `<${node.name}> is not a component this file can use: use one of ${allowed.join(', ')}`
            : `<${node.name}> is not a component this file can use: write plain Markdown here (components work in content/pages files)`,
        })
      }
      if (node.name === 'IngredientCard') {
        const slug = node.attributes?.find((attribute) => attribute.name === 'slug')?.value
        if (typeof slug === 'string') facts.productCards.push({ slug, ...at })
      }
    }
    facts.problems.push(...blockedOnTheSite(node, file))
    if (node.type === 'image' && node.url && !/^(https?:)?\/\//.test(node.url)) {
      if (!existsSync(resolve(dirname(entry.path), decodeURI(node.url)))) {
        facts.problems.push({
          file,
          ...at,
          message: `picture "${node.url}" was not found: the path starts from this file's folder`,
        })
      }
      if (!node.alt?.trim()) {
        facts.problems.push({
          file,
          ...at,
          message: `picture "${node.url}" has no description: describe it between the brackets, ![like this](${node.url})`,
        })
      }
    }
    if (node.type === 'link' && node.url?.startsWith('/') && !node.url.startsWith('//')) {
      facts.links.push({ path: node.url.replace(/[?#].*$/, '').replace(/(.)\/$/, '$1'), ...at })
    }
  }
  return facts
}

/** The addresses of the site's own pages (site/pages), which content pages may not take. */
export function builtInRoutes(root: string): { exact: Set<string>; patterns: RegExp[] } {
  const exact = new Set<string>()
  const patterns: RegExp[] = []
  const visit = (dir: string, prefix: string) => {
    if (!existsSync(dir)) return
    for (const name of readdirSync(dir)) {
      const full = join(dir, name)
      if (statSync(full).isDirectory()) {
        visit(full, `${prefix}/${name}`)
        continue
      }
      const stem = name.replace(/\.(astro|ts|md|mdx)$/, '')
      if (stem === name) continue
      const route = stem === 'index' ? prefix || '/' : `${prefix}/${stem}`
      if (!route.includes('[')) {
        exact.add(route)
        continue
      }
      // The two routes made from content (products, and pages/policies/teasers) are known by their files.
      if (route === '/products/[slug]' || route === '/[page]') continue
      const pattern = route
        .split('/')
        .map((part) =>
          part.startsWith('[...')
            ? '.*'
            : part.startsWith('[')
              ? '[^/]+'
              : part.replace(/[.*+?^${}()|\\]/g, '\\$&'),
        )
        .join('/')
      patterns.push(new RegExp(`^${pattern}$`))
    }
  }
  visit(join(root, 'site', 'pages'), '')
  return { exact, patterns }
}

/**
 * The addresses the shop's own code links to (menus, the home page's tiles), with the first file that does:
 * a page there may not become a draft, or the built site would have a broken link an editor cannot fix.
 */
export function linkedFromSite(root: string): Map<string, string> {
  const linked = new Map<string, string>()
  const visit = (dir: string) => {
    if (!existsSync(dir)) return
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name)
      // site/lib holds code whose strings are not links ('/newsletter' there is a section of pages).
      if (full === join(root, 'site', 'lib')) continue
      if (statSync(full).isDirectory()) {
        visit(full)
        continue
      }
      if (!/\.(astro|ts|tsx)$/.test(name)) continue
      for (const match of readFileSync(full, 'utf8').matchAll(
        /(?:href=|href: |['"`])['"`]?(\/[a-z0-9-]+(?:\/[a-z0-9-]+)?)['"`?#]/g,
      )) {
        const path = match[1] ?? ''
        if (!linked.has(path)) linked.set(path, displayPath(full, root))
      }
    }
  }
  visit(join(root, 'site'))
  return linked
}

function checkJsonFiles(contentDir: string, root: string): { problems: ContentProblem[]; checked: number } {
  const problems: ContentProblem[] = []
  let checked = 0
  for (const { file: name, what, schema } of JSON_FILES) {
    const path = join(contentDir, name)
    if (!existsSync(path)) continue
    checked += 1
    const file = displayPath(path, root)
    const text = readFileSync(path, 'utf8')
    let items: unknown
    try {
      items = JSON.parse(text)
    } catch (error) {
      const position = /position (\d+)/.exec(String(error))?.[1]
      const line = position ? text.slice(0, Number(position)).split('\n').length : undefined
      problems.push({
        file,
        ...(line ? { line } : {}),
        message:
          'the JSON could not be read: check the commas between entries and fields, and the double quotes around every text',
      })
      continue
    }
    if (!Array.isArray(items)) {
      problems.push({ file, message: `must be a list of ${what}s between [ and ]` })
      continue
    }
    const ids = new Set<string>()
    items.forEach((item, index) => {
      const id = (item as { id?: unknown } | null)?.id
      const label = `${what} ${index + 1}${typeof id === 'string' ? ` (${id})` : ''}`
      const offset = typeof id === 'string' ? text.indexOf(JSON.stringify(id)) : -1
      const at = offset >= 0 ? { line: text.slice(0, offset).split('\n').length } : {}
      if (typeof id !== 'string' || !id.trim()) {
        problems.push({
          file,
          ...at,
          message: `${label}: id: is missing: give every ${what} an "id" no other has`,
        })
      } else if (ids.has(id)) {
        problems.push({
          file,
          ...at,
          message: `${label}: id: another ${what} has the id "${id}": give this one its own`,
        })
      } else {
        ids.add(id)
      }
      const parsed = schema.safeParse(item)
      if (!parsed.success) {
        for (const message of describeContentIssues(parsed.error)) {
          problems.push({ file, ...at, message: `${label}: ${message}` })
        }
      }
    })
  }
  return { problems, checked }
}

export interface ContentReport {
  /** How many files were read. */
  checked: number
  problems: ContentProblem[]
  /** Every MDX file whose fields passed, drafts included. */
  entries: ContentEntry[]
  /** What the check could not look at here, and how to let it (not problems: nothing is refused for them). */
  notes: string[]
}

/** Pages and product slugs of files already reported: links to them are not reported a second time. */
interface Reported {
  pages: Set<string>
  productSlugs: Set<string>
}

/** Pages, policies and teasers all live at /<file name>: one address, one page, and none of the shop's own. */
function pageAddresses(
  entries: readonly ContentEntry[],
  routes: ReturnType<typeof builtInRoutes>,
  root: string,
) {
  const owners = new Map<string, ContentEntry>()
  const problems: ContentProblem[] = []
  for (const entry of entries) {
    if (entry.collection === 'products') continue
    const address = `/${entry.id}`
    const file = displayPath(entry.path, root)
    const other = owners.get(address)
    if (routes.exact.has(address) || routes.patterns.some((pattern) => pattern.test(address))) {
      problems.push({ file, message: `the shop already has a page at ${address}: rename the file` })
    } else if (!isIndexable(address)) {
      problems.push({
        file,
        message: `${address} is kept from search engines and the sitemap (the shop's pages there only say what just happened): rename the file`,
      })
    } else if (other) {
      problems.push({
        file,
        message: `${displayPath(other.path, root)} is already the page at ${address}: rename one of them`,
      })
    } else {
      owners.set(address, entry)
    }
  }
  return { owners, problems }
}

/** Links and IngredientCards must reach a page on the built site: not a missing one, not a draft. */
function crossReferences(
  facts: readonly (BodyFacts & { entry: ContentEntry })[],
  find: (path: string) => ContentEntry | 'built-in' | null,
  productBySlug: ReadonlyMap<string, ContentEntry>,
  root: string,
  reported: Reported,
): ContentProblem[] {
  const problems: ContentProblem[] = []
  for (const { entry, links, productCards } of facts) {
    const file = displayPath(entry.path, root)
    for (const link of links) {
      if (/^\/(api|auth|_astro|og)\//.test(link.path) || /\.\w+$/.test(link.path)) continue
      const found = find(link.path)
      const at = link.line ? { line: link.line } : {}
      const product = /^\/products\/([^/]+)$/.exec(link.path)?.[1]
      if (reported.pages.has(link.path) || (product && reported.productSlugs.has(product))) continue
      if (!found) {
        problems.push({
          file,
          ...at,
          message: `the link to ${link.path} goes to no page of the shop: check the address`,
        })
      } else if (found !== 'built-in' && found.draft && !entry.draft) {
        problems.push({
          file,
          ...at,
          message: `the link to ${link.path} goes to a draft, which is not on the built site: publish ${displayPath(found.path, root)} first, or remove the link`,
        })
      }
    }
    for (const card of productCards) {
      const product = productBySlug.get(card.slug)
      const at = card.line ? { line: card.line } : {}
      if (reported.productSlugs.has(card.slug)) continue
      if (!product) {
        problems.push({
          file,
          ...at,
          message: `<IngredientCard slug="${card.slug}"> names no product: use a product's slug`,
        })
      } else if (product.draft && !entry.draft) {
        problems.push({
          file,
          ...at,
          message: `<IngredientCard slug="${card.slug}"> shows a draft product, which is not on the built site: publish it first`,
        })
      }
    }
  }
  return problems
}

/** A product file git's history removed: its id and slug as they were, and where it was. */
interface RemovedProduct {
  id: number
  slug: string
  path: string
}

/** The product files removed in the history of `root`'s repository (none without one). */
export function removedProducts(root: string): RemovedProduct[] {
  const log = git(root, ['log', '--diff-filter=D', '--name-only', '--format=%H', '--', 'content/products'])
  const removed: RemovedProduct[] = []
  let commit = ''
  for (const line of (log ?? '').split('\n')) {
    if (/^[0-9a-f]{40}$/.test(line)) commit = line
    if (!commit || !line.endsWith('.mdx')) continue
    const text = git(root, ['show', `${commit}^:${line}`]) ?? ''
    const id = Number(/^id:\s*['"]?(\d+)/m.exec(text)?.[1])
    const slug = /^slug:\s*['"]?([^'"\s#]+)/m.exec(text)?.[1]
    if (!Number.isSafeInteger(id) || !slug) continue
    // A product file renamed with its text rewritten is, to git, one removed and one added in the same
    // commit: the id still in that commit's files is the same product under a new name, not a removal.
    const stillThere = git(root, [
      'grep',
      '-qE',
      `^id:[[:space:]]*['"]?${id}['"]?[[:space:]]*$`,
      commit,
      '--',
      'content/products',
    ])
    if (stillThere === null) removed.push({ id, slug, path: line })
  }
  return removed
}

/**
 * Why the ids of removed products cannot be checked in `root` (no git; a copy inside another repository
 * that does not track its product files, whose history is not theirs; or a shallow clone, whose history
 * stops short: a removed product's file may be in what it left out), or null when they can.
 */
export function removedProductsUnchecked(root: string): string | null {
  const shallow = git(root, ['rev-parse', '--is-shallow-repository'])?.trim()
  const tracked = git(root, ['ls-files', '--', 'content/products'])?.trim()
  if (shallow === undefined || !tracked) {
    return 'ids of removed products were not checked: this copy is not a git working copy, whose history names them'
  }
  if (shallow === 'true') {
    return "ids of removed products were not checked against the history this shallow clone left out: run 'git fetch --unshallow' and check again"
  }
  return null
}

/**
 * A product given the id of one removed from the shop (another slug): the shop keeps that product's weight,
 * stock and orders under its id, which the new one would take over (docs/editing.md). Publishing the removed
 * product again, with its own slug, is fine. Only where git's history is at hand (a working copy).
 */
function reusedProductIds(products: readonly ContentEntry[], root: string): ContentProblem[] {
  const removed = removedProducts(root)
  if (removed.length === 0) return []
  const used = [...products.map((entry) => Number(entry.data.id) || 0), ...removed.map((each) => each.id)]
  const nextId = Math.max(0, ...used) + 1
  const problems: ContentProblem[] = []
  for (const entry of products) {
    const before = removed.find((each) => each.id === Number(entry.data.id))
    if (!before || removed.some((each) => each.id === before.id && each.slug === String(entry.data.slug)))
      continue
    problems.push({
      file: displayPath(entry.path, root),
      message: `id: ${before.id} was the id of ${before.path} (${before.slug}), which was removed: the shop keeps its weight, stock and orders under that number, so give this product one never used, like ${nextId}`,
    })
  }
  return problems
}

/** Checks every content file below `root`/content. */
export function checkContent(root: string = REPO_ROOT): ContentReport {
  const contentDir = join(root, 'content')
  const report: ContentReport = { checked: 0, problems: [], entries: [], notes: [] }
  const reported: Reported = { pages: new Set(), productSlugs: new Set() }
  for (const collection of MDX_COLLECTIONS) {
    const read = readCollection(collection, join(contentDir, collection), root)
    report.checked += read.checked
    report.problems.push(...read.problems)
    report.entries.push(...read.entries)
    for (const file of read.rejected) {
      if (collection !== 'products') reported.pages.add(`/${file.id}`)
      else if (typeof file.slug === 'string') reported.productSlugs.add(file.slug)
    }
  }
  const facts = report.entries.map((entry) => ({ ...checkBody(entry, root), entry }))
  for (const fact of facts) report.problems.push(...fact.problems)
  const json = checkJsonFiles(contentDir, root)
  report.checked += json.checked
  report.problems.push(...json.problems)

  const products = report.entries.filter((entry) => entry.collection === 'products')
  report.problems.push(...duplicateProducts(products, root), ...reusedProductIds(products, root))
  const unchecked = removedProductsUnchecked(root)
  if (unchecked) report.notes.push(unchecked)
  const routes = builtInRoutes(root)
  const pages = pageAddresses(report.entries, routes, root)
  report.problems.push(...pages.problems)
  const productBySlug = new Map(products.map((entry) => [String(entry.data.slug), entry]))
  const find = (path: string): ContentEntry | 'built-in' | null => {
    if (routes.exact.has(path) || routes.patterns.some((pattern) => pattern.test(path))) return 'built-in'
    const product = /^\/products\/([^/]+)$/.exec(path)?.[1]
    if (product) return productBySlug.get(product) ?? null
    return pages.owners.get(path) ?? null
  }
  report.problems.push(...crossReferences(facts, find, productBySlug, root, reported))
  const linked = linkedFromSite(root)
  for (const entry of report.entries.filter((each) => each.draft)) {
    const address = entry.collection === 'products' ? `/products/${String(entry.data.slug)}` : `/${entry.id}`
    const from = linked.get(address)
    if (from) {
      report.problems.push({
        file: displayPath(entry.path, root),
        message: `draft: ${address} is linked from the shop's menus or pages (${from}), where a draft would be a broken link: keep it published, or ask a developer to take the link out first`,
      })
    }
  }
  report.problems.push(...unmadeLinkedPages(linked, find, reported))
  report.problems.sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0))
  return report
}

/**
 * Addresses the shop's own menus and pages link to that no content file makes (its file removed or renamed):
 * every built page would carry a broken link an editor cannot fix. Reported at the file that links.
 */
function unmadeLinkedPages(
  linked: ReadonlyMap<string, string>,
  find: (path: string) => ContentEntry | 'built-in' | null,
  reported: Reported,
): ContentProblem[] {
  const problems: ContentProblem[] = []
  for (const [address, from] of linked) {
    if (/^\/(api|auth|og|_astro)\//.test(address) || find(address) !== null) continue
    const product = /^\/products\/([^/]+)$/.exec(address)?.[1]
    // A file the check could not read is reported already; its page is not missing.
    if (reported.pages.has(address) || (product && reported.productSlugs.has(product))) continue
    problems.push({
      file: from,
      message: `links to ${address}, which no content file makes (removed or renamed?): put its file back, or ask a developer to take the link out first`,
    })
  }
  return problems
}

/** The entries on the site: all of them under `npm run dev`, drafts left out of the build. */
export function publishedEntries(report: ContentReport, options: { drafts: boolean }): ContentEntry[] {
  return report.entries.filter((entry) => isPublished({ draft: entry.draft }, options))
}
