import { afterAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { checkTree, formatOversize, measure, oversizedIn } from '../../../scripts/check-sizes'

/** `count` statements, one a line. */
const statements = (count: number, indent = '  ') =>
  Array.from({ length: count }, (_, i) => `${indent}total += ${i}`).join('\n')

/** A function whose span is `body` lines plus its first and last line. */
const fn = (name: string, body: number) =>
  `function ${name}() {\n  let total = 0\n${statements(body - 1)}\n}\n`

const lengthOf = (file: string, text: string, name: string) =>
  measure(file, text).find((unit) => unit.name === name)?.lines

describe('measure: how long a function is', () => {
  test('counts the lines from its first to its last', () => {
    expect(lengthOf('api/a.ts', fn('steps', 10), 'steps')).toBe(12)
  })

  test('blank lines and lines holding only a comment do not count; code with a comment does', () => {
    const text = [
      'function steps() {',
      '  // why the first step comes first',
      '',
      '  /* a block comment',
      '     over two lines */',
      '  let total = 0 // a trailing comment',
      '  /** a doc comment */',
      '  return total',
      '}',
    ].join('\n')
    expect(lengthOf('api/a.ts', text, 'steps')).toBe(4)
  })

  test('a template literal with a placeholder does not throw off the lines after it, nested or with braces', () => {
    // Source text holding placeholders, built so that this file's own strings hold none.
    const at = (expression: string) => `$${'{'}${expression}}`
    const text = [
      `const MESSAGE = \`at least ${at('12')} characters. Choose 'Forgot Password' to set one.\``,
      '',
      '// a comment',
      'function steps() {',
      '  // why',
      '',
      '  let total = 0',
      '  return total',
      '}',
    ].join('\n')
    expect(lengthOf('api/a.ts', text, 'steps')).toBe(4)
    const nested = `const OTHER = \`and ${at(`\`a ${at('"b"')} c\``)} { d }\`\n${text}`
    expect(lengthOf('api/a.ts', nested, 'steps')).toBe(4)
    const braces = text.replace(at('12'), at('{ a: 1 }.a'))
    expect(lengthOf('api/a.ts', braces, 'steps')).toBe(4)
  })

  test('a template literal over several lines counts each of its lines', () => {
    const text = 'function page() {\n  return `<p>\n\n  hello\n</p>`\n}\n'
    expect(lengthOf('api/a.ts', text, 'page')).toBe(6)
  })

  test('callbacks written inline count to the function they are written in', () => {
    const text = [
      'function routes(app) {',
      '  return app',
      "    .get('/a', () => {",
      statements(5, '      '),
      '    })',
      "    .post('/b', async ({ body }) => body)",
      '}',
    ].join('\n')
    const units = measure('api/a.ts', text)
    expect(units.find((unit) => unit.name === 'routes')?.lines).toBe(11)
    expect(units.map((unit) => unit.name)).toEqual(['routes', '.get(…) handler', '.post(…) handler'])
  })

  test('named functions inside another are measured alone, not in the one around them', () => {
    const text = [
      'export function createService(db) {',
      '  function helper() {',
      statements(3, '    '),
      '  }',
      '  const arrow = () => {',
      statements(3, '    '),
      '  }',
      '  return {',
      '    method() {',
      statements(3, '      '),
      '    },',
      '    property: async function () {',
      statements(3, '      '),
      '    },',
      '  }',
      '}',
    ].join('\n')
    const units = measure('api/a.ts', text)
    expect(units.map((unit) => [unit.name, unit.lines])).toEqual([
      ['createService', 4],
      ['helper', 5],
      ['arrow', 5],
      ['method', 5],
      ['property', 5],
    ])
    // Measured whole (as a component is), everything inside counts.
    expect(measure('api/a.ts', text, 'whole')[0]?.lines).toBe(24)
  })

  test('names: a class method, a constructor, a wrapped component, a default export', () => {
    const text = [
      'class Queue {',
      '  constructor() {}',
      '  get size() { return 1 }',
      '}',
      'const Card = memo(function () { return null })',
      'export default () => null',
    ].join('\n')
    expect(measure('site/a.tsx', text).map((unit) => unit.name)).toEqual([
      'constructor',
      'size',
      'Card',
      'default export',
    ])
  })
})

describe('oversizedIn: the limits and where they apply', () => {
  test('a function in api/ may have 80 lines, not 81', () => {
    expect(oversizedIn('api/modules/a/service.ts', fn('fits', 78))).toEqual([])
    expect(oversizedIn('api/modules/a/service.ts', fn('tooLong', 79))).toEqual([
      { file: 'api/modules/a/service.ts', line: 1, name: 'tooLong', lines: 81, kind: 'function', limit: 80 },
    ])
  })

  test('a component in site/ may have 200 lines, counting the handlers inside it', () => {
    const component = (name: string, handlerLines: number) =>
      [
        `export function ${name}() {`,
        '  const onClick = () => {',
        statements(handlerLines, '    '),
        '  }',
        '  return <button onClick={onClick}>Go</button>',
        '}',
      ].join('\n')
    expect(oversizedIn('site/features/a/Fits.tsx', component('Fits', 195))).toEqual([])
    const [found] = oversizedIn('site/features/a/Big.tsx', component('Big', 196))
    expect(found).toMatchObject({ name: 'Big', lines: 201, kind: 'component', limit: 200 })
  })

  test('only components count in site/: a long helper, a long .ts file or a file elsewhere is not checked', () => {
    expect(oversizedIn('site/features/a/View.tsx', fn('formatRows', 300))).toEqual([])
    expect(oversizedIn('site/features/a/rules.ts', fn('Rules', 300))).toEqual([])
    expect(oversizedIn('scripts/bench.ts', fn('main', 300))).toEqual([])
    expect(oversizedIn('tests/api/a.test.ts', fn('scenario', 300))).toEqual([])
  })
})

describe('checkTree: a folder as the script reads it', () => {
  const root = mkdtempSync(join(tmpdir(), 'check-sizes-'))
  afterAll(() => rmSync(root, { recursive: true, force: true }))
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }

  test('lists each unit over its limit by file and line, and nothing in node_modules', () => {
    write('api/modules/b/service.ts', `${fn('short', 5)}${fn('long', 90)}`)
    write('api/modules/a/index.ts', fn('routes', 100))
    write('api/node_modules/x/index.ts', fn('vendored', 200))
    write('site/features/x/Page.tsx', fn('Page', 250))
    write('core/rules/a.ts', fn('rule', 200))
    expect(checkTree(root).map(formatOversize)).toEqual([
      'api/modules/a/index.ts:1: function routes (102 lines, at most 80)',
      'api/modules/b/service.ts:8: function long (92 lines, at most 80)',
      'site/features/x/Page.tsx:1: component Page (252 lines, at most 200)',
    ])
  })
})
