// Fails (exit 1, one `file:line: reason` per problem) when the repository points at a document a reader of
// the repository cannot open: the product specification and the design notes that sit beside it (by name,
// by section sign or as "the" spec), a decision number that names no record, or a path to a .md file that
// does not exist, or to a heading it does not have. `bun scripts/check-doc-refs.ts [root]`.
//
// What counts as a path: a Markdown link target (`[text](target)`, relative or repo-rooted), a `docs/…`
// path anywhere (`docs/decisions/015` names the record starting with 015-), and any other token ending in
// `.md` that holds a `/` or is an upper-case name (`README.md`, `SECURITY.md#…`). A path resolves against
// the file's own folder first, then the repository root. An anchor (`file.md#section`, or `#section` inside
// a Markdown file) must be a heading of that file, slugged as GitHub does.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path'

export interface Problem {
  /** Relative to the root, with forward slashes. */
  file: string
  line: number
  /** What was found, as written. */
  found: string
  reason: string
}

/** What the checker needs of a tree: whether a path exists, and a Markdown file's text. */
export interface Tree {
  /** `path` is relative to the root, forward slashes. */
  isFile(path: string): boolean
  isDirectory(path: string): boolean
  /** The names in a directory, or none. */
  list(path: string): string[]
  read(path: string): string | null
}

const OUTSIDE = 'not in the repository (cite docs/product.md, docs/architecture.md or a decision record)'

/** One section sign and number, or several joined by '/' or ',' (a section sign, then 3, then /, then 9). */
const SECTIONS = String.raw`§\s*\d+(?:\.\d+)*(?:\s*[/,]\s*§\s*\d+(?:\.\d+)*)*`

/**
 * Mentions of the documents beside the repository. Earlier patterns win where matches overlap, so a design
 * decision cited by its number is reported once, as what it is.
 */
const OUTSIDE_DOCUMENTS: readonly { pattern: RegExp; reason: string }[] = [
  { pattern: /\bDESIGN\s+decision\s+\d+/g, reason: `design notes, ${OUTSIDE}` },
  { pattern: new RegExp(`\\bDESIGN(?:\\.md)?\\s*${SECTIONS}`, 'g'), reason: `design notes, ${OUTSIDE}` },
  { pattern: /\bDESIGN\.md\b/g, reason: `design notes, ${OUTSIDE}` },
  { pattern: new RegExp(`\\bspec(?:\\.md)?\\s*${SECTIONS}`, 'gi'), reason: `specification, ${OUTSIDE}` },
  { pattern: /(?<![\w.-])spec\.md\b/gi, reason: `specification, ${OUTSIDE}` },
  { pattern: /\bthe\s+spec\b/gi, reason: `specification, ${OUTSIDE}` },
  // A section sign and a number on their own continue one of the citations above.
  {
    pattern: new RegExp(SECTIONS, 'g'),
    reason: `a section of the specification or design notes, ${OUTSIDE}`,
  },
  // Records have three-digit numbers; one or two digits are the design notes' own numbered decisions.
  {
    pattern: /\bdecision\s+\d{1,2}(?![\d.]*\d)/gi,
    reason: 'names no decision record: cite the file in docs/decisions/ (records have three-digit numbers)',
  },
]

/** `[text](target)` and `[text]: target`; the target up to a space or the closing parenthesis. */
const MARKDOWN_LINK = /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|^\s*\[[^\]]+\]:\s*(\S+)/gm
/** A token ending in .md, with an optional #anchor; not part of a URL or a longer name. */
const MD_PATH = /(?<![\w/.:@~%-])((?:\.{1,2}\/|\/)?(?:[\w.-]+\/)*[\w.-]+\.md)(?:#([\w-]+))?(?![\w/-])/g
/** docs/… paths that are not .md files: folders, and records named by their number. */
const DOCS_PATH = /(?<![\w/.:@~%-])(docs\/[\w./-]*[\w-]\/?)(?![\w/-])/g

const TEXT_EXTENSIONS = new Set([
  '.ts',
  '.tsx',
  '.mts',
  '.js',
  '.mjs',
  '.cjs',
  '.astro',
  '.md',
  '.mdx',
  '.json',
  '.css',
  '.sql',
  '.yml',
  '.yaml',
  '.txt',
  '.example',
])
/** Generated or vendored: nobody writes references in these. */
const SKIPPED_PATHS = new Set(['node_modules', '.git', 'db/migrations', 'package-lock.json'])

/** GitHub's heading anchors: lower case, punctuation and symbols dropped, each space a hyphen. */
export function slugify(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-')
}

/** The text GitHub renders for a heading's Markdown: no code ticks, emphasis or link targets. */
function headingText(raw: string): string {
  return raw
    .replace(/\s+#+\s*$/, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
}

/** Every anchor a Markdown file offers: its headings (repeats get -1, -2 …) and explicit `id`/`name`s. */
export function markdownAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  let fence: string | null = null
  for (const line of markdown.split(/\r?\n/)) {
    // Headings inside fenced code are not headings.
    const fenceMark = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1]?.charAt(0)
    if (fenceMark) {
      if (fence === null) fence = fenceMark
      else if (fenceMark === fence) fence = null
      continue
    }
    if (fence !== null) continue
    const heading = /^\s{0,3}#{1,6}\s+(.*)$/.exec(line)?.[1]
    if (heading !== undefined) {
      const slug = slugify(headingText(heading))
      const count = seen.get(slug) ?? 0
      seen.set(slug, count + 1)
      anchors.add(count === 0 ? slug : `${slug}-${count}`)
    }
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) if (match[1]) anchors.add(match[1])
  }
  return anchors
}

function lineOf(text: string, index: number): number {
  let line = 1
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) line += 1
  return line
}

/** `My%20File.md` as the file is named; a malformed escape is taken as written. */
function decodedPath(path: string): string {
  try {
    return decodeURI(path)
  } catch {
    return path
  }
}

function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')
}

/** A path as the repository holds it (relative to the root), or null when it leaves the root. */
function normalise(path: string): string | null {
  const parts: string[] = []
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..') {
      if (parts.length === 0) return null
      parts.pop()
    } else parts.push(part)
  }
  return parts.join('/')
}

/** Where a referenced path lands: beside the file, else from the root (a leading / is the root too). */
function candidates(fromFile: string, path: string): string[] {
  const fromDir = dirname(fromFile) === '.' ? '' : dirname(fromFile)
  const here = path.startsWith('/') ? null : normalise(`${fromDir}/${path}`)
  const root = normalise(path)
  return [here, root].filter((candidate): candidate is string => candidate !== null)
}

interface Found {
  start: number
  end: number
  problem: Omit<Problem, 'file' | 'line'> | null
}

/** Where inline code (`…`) and fenced code blocks sit in a Markdown text, as [start, end) offsets. */
export function codeSpans(markdown: string): [number, number][] {
  const spans: [number, number][] = []
  for (const fence of markdown.matchAll(/^\s{0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\s{0,3}\1[^\n]*$/gm)) {
    spans.push([fence.index, fence.index + fence[0].length])
  }
  for (const code of markdown.matchAll(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g)) {
    spans.push([code.index, code.index + code[0].length])
  }
  return spans
}

export function checkFile(file: string, text: string, tree: Tree): Problem[] {
  const found: Found[] = []
  const taken = (start: number, end: number) => found.some((other) => start < other.end && other.start < end)
  const add = (start: number, end: number, problem: Found['problem']) => {
    if (!taken(start, end)) found.push({ start, end, problem })
  }

  for (const { pattern, reason } of OUTSIDE_DOCUMENTS) {
    for (const match of text.matchAll(pattern)) {
      add(match.index, match.index + match[0].length, { found: match[0].replace(/\s+/g, ' '), reason })
    }
  }

  const anchorsOf = (path: string) => markdownAnchors(tree.read(path) ?? '')
  const checkPath = (start: number, end: number, written: string, path: string, anchor: string | null) => {
    if (path === '' && anchor !== null) {
      const ok = extname(file) === '.md' && anchorsOf(file).has(anchor)
      add(start, end, ok ? null : { found: written, reason: `no heading "#${anchor}" in this file` })
      return
    }
    const target = candidates(file, path).find(
      (candidate) => tree.isFile(candidate) || tree.isDirectory(candidate),
    )
    if (!target) {
      add(start, end, { found: written, reason: 'no such file in the repository' })
      return
    }
    const hasAnchor = anchor === null || !target.endsWith('.md') || anchorsOf(target).has(anchor)
    add(start, end, hasAnchor ? null : { found: written, reason: `${target} has no heading "#${anchor}"` })
  }

  if (extname(file) === '.md') {
    const examples = codeSpans(text)
    for (const match of text.matchAll(MARKDOWN_LINK)) {
      // A link written inside `code` is an example of Markdown for the reader (docs/editing.md), not a link.
      if (examples.some(([start, end]) => match.index >= start && match.index < end)) {
        add(match.index, match.index + match[0].length, null)
        continue
      }
      const written = match[1] ?? match[2] ?? ''
      if (written === '' || isExternal(written)) {
        add(match.index, match.index + match[0].length, null)
        continue
      }
      const [path = '', anchor] = written.split('#')
      checkPath(match.index, match.index + match[0].length, written, decodedPath(path), anchor ?? null)
    }
  }

  for (const match of text.matchAll(MD_PATH)) {
    const path = match[1] ?? ''
    const upperCaseName = !path.includes('/') && /^[A-Z][A-Z0-9_-]*\.md$/.test(path)
    if (!path.includes('/') && !upperCaseName) continue
    checkPath(match.index, match.index + match[0].length, match[0], path, match[2] ?? null)
  }

  for (const match of text.matchAll(DOCS_PATH)) {
    const written = match[1] ?? ''
    const path = written.replace(/\/$/, '')
    const start = match.index
    const end = start + written.length
    const exists = tree.isFile(path) || tree.isDirectory(path)
    // A record may be named by its number alone: docs/decisions/015 is the file starting with 015 and a dash.
    const named = tree.list(dirname(path)).some((name) => name.startsWith(`${basename(path)}-`))
    add(
      start,
      end,
      exists || named ? null : { found: written, reason: 'no such file or folder in the repository' },
    )
  }

  return found
    .filter((entry) => entry.problem !== null)
    .sort((a, b) => a.start - b.start)
    .map((entry) => ({ file, line: lineOf(text, entry.start), ...(entry.problem as Found['problem'] & {}) }))
}

/** The tree under `root` on disk. */
export function diskTree(root: string): Tree {
  const full = (path: string) => resolve(root, path)
  return {
    isFile: (path) => existsSync(full(path)) && statSync(full(path)).isFile(),
    isDirectory: (path) => existsSync(full(path)) && statSync(full(path)).isDirectory(),
    list: (path) =>
      existsSync(full(path)) && statSync(full(path)).isDirectory() ? readdirSync(full(path)) : [],
    read: (path) => (existsSync(full(path)) ? readFileSync(full(path), 'utf8') : null),
  }
}

/** Folder names and file patterns the repository's .gitignore leaves out (its simple forms). */
function ignoredByGit(root: string): { names: Set<string>; suffixes: string[] } {
  const names = new Set<string>()
  const suffixes: string[] = []
  const gitignore = join(root, '.gitignore')
  if (!existsSync(gitignore)) return { names, suffixes }
  for (const raw of readFileSync(gitignore, 'utf8').split(/\r?\n/)) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue
    if (line.startsWith('*.')) suffixes.push(line.slice(1))
    else names.add(line.replace(/^\/|\/$/g, ''))
  }
  return { names, suffixes }
}

/** Every text file a person writes in, relative to `root`. */
export function textFiles(root: string): string[] {
  const ignored = ignoredByGit(root)
  const files: string[] = []
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir)).sort()) {
      const path = dir === '' ? name : `${dir}/${name}`
      if (SKIPPED_PATHS.has(path) || SKIPPED_PATHS.has(name) || ignored.names.has(name)) continue
      if (ignored.suffixes.some((suffix) => name.endsWith(suffix))) continue
      if (name.startsWith('.') && name !== '.env.example') continue
      const stats = statSync(join(root, path))
      if (stats.isDirectory()) walk(path)
      else if (TEXT_EXTENSIONS.has(extname(name)) && stats.size < 2_000_000) files.push(path)
    }
  }
  walk('')
  return files
}

export function checkTree(root: string): Problem[] {
  const tree = diskTree(root)
  return textFiles(root).flatMap((file) =>
    checkFile(file.split(sep).join('/'), readFileSync(join(root, file), 'utf8'), tree),
  )
}

if (import.meta.main) {
  const root = resolve(process.argv[2] ?? resolve(import.meta.dir, '..'))
  const problems = checkTree(root)
  for (const problem of problems) {
    console.error(`${problem.file}:${problem.line}: ${problem.found} — ${problem.reason}`)
  }
  if (problems.length > 0) {
    const files = new Set(problems.map((problem) => problem.file)).size
    console.error(
      `\n${problems.length} reference(s) in ${files} file(s) point at documents a reader cannot open.`,
    )
    process.exit(1)
  }
  console.log(`Every document reference resolves (${relative(process.cwd(), root) || '.'}).`)
}
