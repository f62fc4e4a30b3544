import { describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import {
  checkFile,
  checkTree,
  markdownAnchors,
  type Problem,
  slugify,
  type Tree,
} from '../../../scripts/check-doc-refs'

// The checker reads this file too, so the references it must catch are put together from pieces here.
const DESIGN = ['DES', 'IGN'].join('')
const SPEC = ['sp', 'ec'].join('')
const DECISION = ['deci', 'sion'].join('')
/** `path` with .md added. */
const md = (path: string) => [path, 'md'].join('.')
const docs = (...parts: string[]) => ['docs', ...parts].join('/')
const README = md('README')

const ROOT = resolve(import.meta.dir, '../../..')

/** A tree held in memory: file path → text. */
function memoryTree(files: Record<string, string>): Tree {
  const folders = new Set<string>([''])
  for (const path of Object.keys(files)) {
    const parts = path.split('/')
    for (let end = 1; end < parts.length; end++) folders.add(parts.slice(0, end).join('/'))
  }
  const parentOf = (path: string) => (dirname(path) === '.' ? '' : dirname(path))
  return {
    isFile: (path) => path in files,
    isDirectory: (path) => folders.has(path),
    list: (path) =>
      [...Object.keys(files), ...folders]
        .filter((entry) => entry !== '' && parentOf(entry) === path)
        .map((entry) => basename(entry)),
    read: (path) => files[path] ?? null,
  }
}

const TREE_FILES: Record<string, string> = {
  [README]: '# Shop\n\n## Run it in production\n\n## Run it in production\n',
  [docs('product.md')]: '# What the shop does\n\n## Cart\n\n### Free shipping\n\nSee [the cart](#cart).\n',
  [docs('architecture.md')]: '# How it is built\n\n## Layers\n',
  [docs('decisions', '015-invalid-input-status.md')]: '# Invalid input\n',
  'core/rules/money.ts': '// money\n',
}

function problemsIn(file: string, text: string, files: Record<string, string> = TREE_FILES): Problem[] {
  return checkFile(file, text, memoryTree({ ...files, [file]: text }))
}

const lines = (problems: Problem[]) => problems.map((problem) => `${problem.line}:${problem.found}`)

describe('slugify: anchors as GitHub makes them', () => {
  test.each([
    ['Run it in production', 'run-it-in-production'],
    ['A checkout, file by file', 'a-checkout-file-by-file'],
    ['Sign-in', 'sign-in'],
    ['E-mails', 'e-mails'],
    ["What's new — 2.0", 'whats-new--20'],
    ['label_created & shipped', 'label_created--shipped'],
    ['Café \u00a74', 'café-4'],
  ])('%p → %p', (heading, slug) => {
    expect(slugify(heading)).toBe(slug)
  })
})

describe('markdownAnchors', () => {
  test('headings of every level, repeats numbered, code and links as their text, explicit ids', () => {
    const anchors = markdownAnchors(
      [
        '# Title',
        '## Cart',
        '## Cart',
        '### `GET /api/catalog` ##',
        `## See [the README](../${README})`,
        '<a id="kept-by-hand"></a>',
      ].join('\n'),
    )
    expect([...anchors].sort()).toEqual(
      ['title', 'cart', 'cart-1', 'get-apicatalog', 'see-the-readme', 'kept-by-hand'].sort(),
    )
  })

  test('lines in fenced code are not headings', () => {
    const anchors = markdownAnchors(
      ['## Real', '```sh', '# a shell comment', '```', '~~~', '## not', '~~~'].join('\n'),
    )
    expect([...anchors]).toEqual(['real'])
  })
})

describe('documents outside the repository', () => {
  test('every form is reported with its line', () => {
    const text = [
      `// Free shipping (${DESIGN} ${DECISION} 4) and the total (${SPEC} \u00a75).`,
      `// Budgets of ${DESIGN}.md \u00a77, see ${DESIGN} \u00a76.8 and ${SPEC.toUpperCase()}.md.`,
      `/** ${SPEC[0]?.toUpperCase()}${SPEC.slice(1)} \u00a73/\u00a79: the states. */`,
      `// As the ${SPEC}'s toast says; The ${SPEC} says so (\u00a78).`,
      `// Calculator: 1–20 items (${DECISION} 5).`,
    ].join('\n')
    expect(lines(problemsIn('core/rules/money.ts', text))).toEqual([
      `1:${DESIGN} ${DECISION} 4`,
      `1:${SPEC} \u00a75`,
      `2:${DESIGN}.md \u00a77`,
      `2:${DESIGN} \u00a76.8`,
      `2:${SPEC.toUpperCase()}.md`,
      `3:S${SPEC.slice(1)} \u00a73/\u00a79`,
      `4:the ${SPEC}`,
      `4:The ${SPEC}`,
      '4:\u00a78',
      `5:${DECISION} 5`,
    ])
  })

  test('a form broken over two lines is still found', () => {
    expect(
      lines(
        problemsIn(
          docs('decisions', '015-invalid-input-status.md'),
          `# X\n\nand ${DESIGN}\n${DECISION} 5 said`,
        ),
      ),
    ).toEqual([`3:${DESIGN} ${DECISION} 5`])
  })

  test('decision records, the word specification and spec files are not references to it', () => {
    const text = [
      '// decision 013 and [decision 014] are records',
      `// the ${SPEC}ification of Stripe; tests/e2e/cart.${SPEC}.ts; for (const ${SPEC} of pages)`,
    ].join('\n')
    expect(lines(problemsIn('core/rules/money.ts', text))).toEqual([])
  })
})

describe('paths to documents', () => {
  test('a path that exists, from the root or beside the file, with a heading it has, passes', () => {
    const security = md('SECURITY')
    const code = `// ${docs('product.md')}#cart, ${docs('product.md')}#free-shipping, ${README}#run-it-in-production-1, ${security}`
    expect(
      lines(problemsIn('core/rules/money.ts', code, { ...TREE_FILES, [security]: '# Security\n' })),
    ).toEqual([])
    const markdown = `See [architecture](architecture.md#layers), [home](../${README}) and [here](#cart).`
    expect(lines(problemsIn(docs('product.md'), `## Cart\n\n${markdown}\n`))).toEqual([])
  })

  test('a missing file, a missing heading and a path outside the repository are reported', () => {
    const code = [
      `// ${docs('missing.md')} and ${docs('product.md')}#basket`,
      `// ${README}#nowhere, see ${md('/work/notes/perf-findings')} and ${md('../shared/notes')}`,
    ].join('\n')
    const problems = problemsIn('core/rules/money.ts', code)
    expect(lines(problems)).toEqual([
      `1:${docs('missing.md')}`,
      `1:${docs('product.md')}#basket`,
      `2:${README}#nowhere`,
      `2:${md('/work/notes/perf-findings')}`,
      `2:${md('../shared/notes')}`,
    ])
    expect(problems[1]?.reason).toContain('"#basket"')
  })

  test('Markdown links are checked, web addresses are not', () => {
    const markdown = [
      '# Doc',
      '[gone](gone.md) [no heading](architecture.md#nothing) [self](#doc) [bad self](#nope)',
      '[web](https://example.com/README.md#x) [mail](mailto:a@example.com) [folder](decisions/)',
      `[ref]: ${md('./missing-too')}`,
    ].join('\n')
    expect(lines(problemsIn(docs('product.md'), markdown))).toEqual([
      '2:gone.md',
      '2:architecture.md#nothing',
      '2:#nope',
      `4:${md('./missing-too')}`,
    ])
  })

  test('a record may be named by its number; a folder or record that is not there is reported', () => {
    const code = `// ${docs('decisions', '015')}, ${docs('decisions')}/, ${docs('decisions', '099')}, ${docs('guides')}/`
    expect(lines(problemsIn('core/rules/money.ts', code))).toEqual([
      `1:${docs('decisions', '099')}`,
      `1:${docs('guides')}/`,
    ])
  })

  test('a lower-case file name without a folder is a file the code writes, not a document cited', () => {
    expect(lines(problemsIn('scripts/test.ts', "const counts = join(dir, 'drills.md')"))).toEqual([])
  })
})

describe('checkTree and the command', () => {
  function writeTree(files: Record<string, string>): string {
    const root = mkdtempSync(join(tmpdir(), 'doc-refs-'))
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true })
      writeFileSync(join(root, path), text)
    }
    return root
  }

  function run(root: string) {
    const child = Bun.spawnSync([process.execPath, join(ROOT, 'scripts/check-doc-refs.ts'), root])
    return { code: child.exitCode, out: child.stdout.toString(), err: child.stderr.toString() }
  }

  test('fails with file:line for each problem; skips dependencies, ignored and generated files', () => {
    const root = writeTree({
      ...TREE_FILES,
      '.gitignore': 'dist/\n*.log\n',
      'core/rules/money.ts': `// ok: ${docs('product.md')}#cart\n// bad: ${SPEC} \u00a79\n`,
      [docs('architecture.md')]: '# How it is built\n\nSee [product](product.md#nothing-here).\n',
      [join('node_modules', 'pkg', README)]: md(DESIGN),
      [join('dist', 'index.js')]: `// ${SPEC} \u00a71`,
      'server.log': `${SPEC} \u00a71`,
      [join('db', 'migrations', '0001.sql')]: `-- ${SPEC} \u00a71`,
    })
    try {
      const problems = checkTree(root)
      expect(problems.map((problem) => `${problem.file}:${problem.line}`)).toEqual([
        'core/rules/money.ts:2',
        `${docs('architecture.md')}:3`,
      ])
      const { code, err } = run(root)
      expect(code).toBe(1)
      expect(err).toContain(`core/rules/money.ts:2: ${SPEC} \u00a79`)
      expect(err).toContain(`${docs('architecture.md')}:3: product.md#nothing-here`)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })

  test('passes (exit 0) when every reference resolves', () => {
    const root = writeTree(TREE_FILES)
    try {
      expect(checkTree(root)).toEqual([])
      expect(run(root).code).toBe(0)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })

  test("the repository's own product and architecture documents resolve every link and anchor", () => {
    const own = checkTree(ROOT).filter((problem) =>
      [docs('product.md'), docs('architecture.md')].includes(problem.file),
    )
    expect(own).toEqual([])
  })
})
