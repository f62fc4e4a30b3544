// Lists the units too long to read at once: functions over 80 lines in api/, React components over 200
// lines in site/ (docs/architecture.md#conventions), one `file:line: name (N lines, at most M)` each, and
// exits 1 when there is one. `bun scripts/check-sizes.ts [root]`.
//
// A unit's length is the lines it spans from its first line to its last, blank lines and lines holding
// only a comment left out: a comment that says why should never be what pushes a function over.
// - A function in api/ counts the callbacks written inline in it (a route chain's handlers, a `.map(…)`),
//   as a reader reads them, but not the named functions inside it (declarations, methods, a property or
//   variable holding a function): each of those is a unit of its own and measured alone. A service
//   factory that returns twenty short methods is not one long function; a route chain of twenty inline
//   handlers is.
// - A component in site/ counts everything in it: its handlers close over its state and go with it.
import { readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { filesUnder, notOurs } from './files-under'

export interface Unit {
  name: string
  /** 1-based. */
  line: number
  /** Lines of code: blank and comment-only lines not counted. */
  lines: number
}

export interface Oversize extends Unit {
  /** Relative to the root, with forward slashes. */
  file: string
  kind: 'function' | 'component'
  limit: number
}

/** Where each limit applies: every function in the API, the components (capitalised functions) of the site. */
export const RULES = [
  { folder: 'api', kind: 'function', limit: 80, matches: /\.tsx?$/ },
  { folder: 'site', kind: 'component', limit: 200, matches: /\.tsx$/ },
] as const

/** `own`: without the named functions inside; `whole`: every line from the first to the last. */
export type Measure = 'own' | 'whole'

type FunctionLike =
  | ts.FunctionDeclaration
  | ts.FunctionExpression
  | ts.ArrowFunction
  | ts.MethodDeclaration
  | ts.ConstructorDeclaration
  | ts.GetAccessorDeclaration
  | ts.SetAccessorDeclaration

function isFunctionLike(node: ts.Node): node is FunctionLike {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  )
}

function nameText(name: ts.PropertyName | ts.BindingName | undefined, source: ts.SourceFile): string | null {
  if (!name) return null
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isPrivateIdentifier(name)) return name.text
  return name.getText(source)
}

/**
 * What a reader would call the function: its own name, the variable or property it is assigned to (also
 * through a wrapping call such as `memo(…)`), or the call it is handed to (`.post(…) handler`).
 */
export function functionName(node: FunctionLike, source: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor'
  const own = nameText(node.name, source)
  if (own) return own
  let child: ts.Node = node
  let parent = node.parent
  while (ts.isParenthesizedExpression(parent) || ts.isAsExpression(parent)) {
    child = parent
    parent = parent.parent
  }
  if (ts.isCallExpression(parent) && parent.arguments.includes(child as ts.Expression)) {
    const holder = parent.parent
    if (ts.isVariableDeclaration(holder) || ts.isPropertyAssignment(holder)) {
      return nameText(holder.name, source) ?? 'anonymous'
    }
    const callee = parent.expression
    const called = ts.isPropertyAccessExpression(callee) ? `.${callee.name.text}` : callee.getText(source)
    return `${called}(…) handler`
  }
  if (
    ts.isVariableDeclaration(parent) ||
    ts.isPropertyAssignment(parent) ||
    ts.isPropertyDeclaration(parent)
  ) {
    return nameText(parent.name, source) ?? 'anonymous'
  }
  if (ts.isExportAssignment(parent)) return 'default export'
  return 'anonymous'
}

/** The 0-based numbers of the lines that hold code (not blank, not only a comment). */
function codeLines(source: ts.SourceFile): Set<number> {
  const lines = new Set<number>()
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, source.languageVariant, source.text)
  // Braces open inside each template literal's `${…}` being read: the `}` that closes one goes back to the
  // template's text, which the scanner reads as such only when told (else a quote or backtick in that text
  // would be read as the start of a string and throw off every line after it).
  const templateBraces: number[] = []
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    const open = templateBraces.length - 1
    const braces = templateBraces[open]
    if (token === ts.SyntaxKind.TemplateHead) templateBraces.push(0)
    else if (token === ts.SyntaxKind.OpenBraceToken && braces !== undefined) templateBraces[open] = braces + 1
    else if (token === ts.SyntaxKind.CloseBraceToken && braces !== undefined) {
      if (braces > 0) templateBraces[open] = braces - 1
      else if (scanner.reScanTemplateToken(false) === ts.SyntaxKind.TemplateTail) templateBraces.pop()
    }
    const start = source.getLineAndCharacterOfPosition(scanner.getTokenStart()).line
    const end = source.getLineAndCharacterOfPosition(scanner.getTokenEnd()).line
    // A token may span lines (a template literal, JSX text): each of them holds code.
    for (let line = start; line <= end; line++) lines.add(line)
  }
  return lines
}

/**
 * A function written as a named part of another (a declaration, a method, a property or variable holding a
 * function) is read on its own and measured on its own; a callback written inline is part of the function
 * it is written in.
 */
function standsAlone(node: FunctionLike): boolean {
  if (!ts.isFunctionExpression(node) && !ts.isArrowFunction(node)) return true
  let parent = node.parent
  while (ts.isParenthesizedExpression(parent) || ts.isAsExpression(parent)) parent = parent.parent
  return (
    ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)
  )
}

/** Every function in a file with its length. */
export function measure(file: string, text: string, how: Measure = 'own'): Unit[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind)
  const code = codeLines(source)
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line
  const found: { node: FunctionLike; first: number; last: number }[] = []
  const visit = (node: ts.Node) => {
    if (isFunctionLike(node) && node.body) {
      found.push({ node, first: lineOf(node.getStart(source)), last: lineOf(node.getEnd()) })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found.map(({ node, first, last }) => {
    const lines = new Set<number>()
    for (let line = first; line <= last; line++) if (code.has(line)) lines.add(line)
    // The named functions inside are units of their own: their lines are theirs, not this one's.
    for (const inner of how === 'own' ? found : []) {
      if (inner.node === node || !standsAlone(inner.node)) continue
      if (inner.node.pos < node.pos || inner.node.end > node.end) continue
      for (let line = inner.first; line <= inner.last; line++) lines.delete(line)
    }
    return { name: functionName(node, source), line: first + 1, lines: lines.size }
  })
}

/** A React component is a function whose name starts with a capital letter. */
const isComponentName = (name: string) => /^[A-Z]/.test(name)

/** The units of one file over the limit of the rule that covers it (none when no rule does). */
export function oversizedIn(file: string, text: string): Oversize[] {
  const rule = RULES.find(
    (candidate) => file.startsWith(`${candidate.folder}/`) && candidate.matches.test(file),
  )
  if (!rule) return []
  return measure(file, text, rule.kind === 'component' ? 'whole' : 'own')
    .filter((unit) => rule.kind === 'function' || isComponentName(unit.name))
    .filter((unit) => unit.lines > rule.limit)
    .map((unit) => ({ ...unit, file, kind: rule.kind, limit: rule.limit }))
}

export function checkTree(root: string): Oversize[] {
  return RULES.flatMap((rule) => filesUnder(join(root, rule.folder), notOurs))
    .map((path) => relative(root, path).split('\\').join('/'))
    .flatMap((file) => oversizedIn(file, readFileSync(join(root, file), 'utf8')))
    .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line)
}

export function formatOversize(unit: Oversize): string {
  return `${unit.file}:${unit.line}: ${unit.kind} ${unit.name} (${unit.lines} lines, at most ${unit.limit})`
}

if (import.meta.main) {
  const root = resolve(process.argv[2] ?? resolve(import.meta.dir, '..'))
  const found = checkTree(root)
  if (found.length > 0) {
    console.error(`Units too long to read at once (${found.length}): split them into named steps.`)
    for (const unit of found) console.error(`  ${formatOversize(unit)}`)
    process.exit(1)
  }
  console.log('No function in api/ over 80 lines and no component in site/ over 200.')
}
