// Fails when an import breaks a layer rule (scripts/imports/rules.ts: which folder may import which), or
// when modules import each other in a circle (type-only imports included). Run by `npm test`; the layers
// are drawn in docs/architecture.md#layers.
import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { filesUnder, notOurs } from './files-under'
import { brokenRules } from './imports/rules'

const ROOT = resolve(import.meta.dir, '..')
const FOLDERS = ['api', 'core', 'db', 'site', 'content', 'scripts']
const SOURCE = /\.(ts|tsx|mts|astro)$/
const ALIASES: Record<string, string> = { '@core/': 'core/' }
// import … from '…', export … from '…', import '…', import('…')
const SPECIFIERS = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g

function resolveImport(from: string, specifier: string): string | null {
  let base: string | null = null
  if (specifier.startsWith('.')) base = resolve(dirname(from), specifier)
  for (const [alias, target] of Object.entries(ALIASES)) {
    if (specifier.startsWith(alias)) base = resolve(ROOT, target, specifier.slice(alias.length))
  }
  if (!base) return null
  const candidates = [base, ...['.ts', '.tsx', '.astro', '/index.ts', '/index.tsx'].map((ext) => base + ext)]
  return candidates.find((path) => existsSync(path) && statSync(path).isFile()) ?? null
}

const files = FOLDERS.flatMap((folder) => filesUnder(join(ROOT, folder), notOurs)).filter((file) =>
  SOURCE.test(file),
)
const graph = new Map<string, string[]>()
for (const file of files) {
  let text = readFileSync(file, 'utf8')
  // Astro components: only the frontmatter and <script> blocks import.
  if (file.endsWith('.astro')) text = text.replace(/<style[\s\S]*?<\/style>/g, '')
  const targets = new Set<string>()
  for (const match of text.matchAll(SPECIFIERS)) {
    const target = match[1] ? resolveImport(file, match[1]) : null
    if (target && SOURCE.test(target)) targets.add(target)
  }
  graph.set(file, [...targets])
}

// Tarjan's strongly connected components: every component with more than one file (or a self-import) is a circle.
let index = 0
const indexes = new Map<string, number>()
const lowlinks = new Map<string, number>()
const stack: string[] = []
const onStack = new Set<string>()
const circles: string[][] = []

function connect(file: string): void {
  indexes.set(file, index)
  lowlinks.set(file, index)
  index += 1
  stack.push(file)
  onStack.add(file)
  for (const next of graph.get(file) ?? []) {
    if (!indexes.has(next)) {
      connect(next)
      lowlinks.set(file, Math.min(lowlinks.get(file) ?? 0, lowlinks.get(next) ?? 0))
    } else if (onStack.has(next)) {
      lowlinks.set(file, Math.min(lowlinks.get(file) ?? 0, indexes.get(next) ?? 0))
    }
  }
  if (lowlinks.get(file) === indexes.get(file)) {
    const component: string[] = []
    let member: string | undefined
    do {
      member = stack.pop()
      if (member === undefined) break
      onStack.delete(member)
      component.push(member)
    } while (member !== file)
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) circles.push(component)
  }
}

for (const file of graph.keys()) if (!indexes.has(file)) connect(file)

const broken: string[] = []
for (const [file, targets] of graph) {
  for (const target of targets) {
    for (const rule of brokenRules(relative(ROOT, file), relative(ROOT, target))) {
      broken.push(`  - ${relative(ROOT, file)} → ${relative(ROOT, target)}: ${rule.name} (${rule.why})`)
    }
  }
}
if (broken.length > 0) {
  console.error(`Imports against the layers (${broken.length}):`)
  for (const line of broken) console.error(line)
}

if (circles.length > 0) {
  console.error(`Import circles found (${circles.length}); each module of a circle imports another of it:`)
  for (const circle of circles) console.error(`  - ${circle.map((file) => relative(ROOT, file)).join(' ↔ ')}`)
}
if (broken.length > 0 || circles.length > 0) process.exit(1)
console.log(`No import against the layers and no circle among ${graph.size} modules.`)
