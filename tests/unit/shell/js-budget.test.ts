import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import {
  BUDGET_TABLE_END,
  BUDGET_TABLE_START,
  budgetFor,
  budgetTable,
  type PageWeight,
  pageScripts,
  staticImports,
  withBudgetTable,
} from '../../../scripts/js-budget'

describe('js budget: reading the build', () => {
  test('finds static imports in minified chunks, not dynamic ones', () => {
    const code =
      'import{t as e}from"./react.js";import"./side-effect.js";export{a as b}from"./re.js";const x=import("./lazy.js");'
    expect(staticImports(code).sort()).toEqual(['./re.js', './react.js', './side-effect.js'])
  })

  test('collects inline scripts, module scripts, preloads, island chunks and modules imported after paint', () => {
    const html = `
      <script>(function(){})()</script>
      <script type="module" src="/_astro/page.js"></script>
      <script type="application/json" id="after-paint-modules">["/_astro/Footer.js","/_astro/page.js"]</script>
      <script type="application/ld+json">{"a":1}</script>
      <script type="module">import "/_astro/inline-dep.js"</script>
      <link rel="modulepreload" href="/_astro/pre.js">
      <astro-island component-url="/_astro/Header.js" renderer-url="/_astro/client.js"></astro-island>`
    const { inline, urls } = pageScripts(html)
    expect(inline).toHaveLength(2)
    expect(urls.sort()).toEqual(
      [
        '/_astro/Footer.js',
        '/_astro/Header.js',
        '/_astro/client.js',
        '/_astro/inline-dep.js',
        '/_astro/page.js',
        '/_astro/pre.js',
      ].sort(),
    )
  })

  test('content pages get 85 KiB, cart/checkout/account pages 120 KiB', () => {
    expect(budgetFor('/').bytes).toBe(85 * 1024)
    expect(budgetFor('/products/whisker-oil').kind).toBe('content')
    expect(budgetFor('/cart').bytes).toBe(120 * 1024)
    expect(budgetFor('/checkout').kind).toBe('app')
    expect(budgetFor('/cartography').kind).toBe('content')
  })
})

/** A measured page as the table reads it: its route and total, with the budget its kind gets. */
function page(route: string, kib: number): PageWeight {
  const { kind, bytes } = budgetFor(route)
  return { route, files: [], inlineGzip: 0, total: Math.round(kib * 1024), budget: bytes, kind }
}

/** One of every page the built site has, so every row of the table has a page. */
const SITE = [
  page('/', 83.7),
  page('/404', 81.6),
  page('/about', 81.6),
  page('/privacy-policy', 81.6),
  page('/newsletter/subscribed', 81.6),
  page('/products/404', 81.6),
  page('/account-deleted', 81.6),
  page('/products/whisker-oil', 83.6),
  page('/products/repair', 83.6),
  page('/shop', 85.0),
  page('/cart', 85.9),
  page('/success', 85.1),
  page('/checkout', 86.5),
  page('/shipping', 90.8),
  page('/login', 87.9),
  page('/signup', 87.3),
  page('/forgot-password', 86.6),
  page('/reset-password', 87.3),
  page('/verify-email', 83.5),
  page('/profile', 94.8),
  page('/account', 94.8),
  page('/account/orders', 87.2),
  page('/google-sign-in', 81.7),
  page('/without-google/login', 87.9),
  page('/without-google/signup', 87.3),
  page('/without-google/google-sign-in', 81.6),
  page('/dashboard', 89.2),
]

const rowOf = (table: string, label: string) =>
  table
    .split('\n')
    .find((line) => line.startsWith(`| ${label} `))
    ?.split('|')
    .slice(2, 4)
    .map((cell) => cell.trim())

describe('js budget: the README table', () => {
  test('a row per kind of page, a range where its pages differ, with the budget of its kind', () => {
    const table = budgetTable(SITE)
    expect(rowOf(table, '/shop')).toEqual(['85.0 KiB', '85 KiB'])
    expect(rowOf(table, '/products/{slug}')).toEqual(['83.6 KiB', '85 KiB'])
    expect(rowOf(table, '/login, /signup, /forgot-password, /reset-password')).toEqual([
      '86.6–87.9 KiB',
      '120 KiB',
    ])
    expect(rowOf(table, '/profile, /account')).toEqual(['94.8 KiB', '120 KiB'])
    // Every content page no other row names, whatever the content folder holds: 404 pages included.
    expect(rowOf(table, '/about, /ingredients, teasers, policies, /newsletter/*, 404 pages')).toEqual([
      '81.6 KiB',
      '85 KiB',
    ])
    const lines = table.split('\n')
    expect(lines[0]).toMatch(/^\| page +\| JavaScript \(gzip\) \| budget +\|$/)
    // Aligned like the README's other tables.
    expect(new Set(lines.map((line) => line.length)).size).toBe(1)
  })

  test('a new content page joins the content row; a page of another kind that no row names is an error', () => {
    const table = budgetTable([...SITE, page('/beard-guide', 82.0)])
    expect(rowOf(table, '/about, /ingredients, teasers, policies, /newsletter/*, 404 pages')).toEqual([
      '81.6–82.0 KiB',
      '85 KiB',
    ])
    expect(() => budgetTable([...SITE, page('/dashboard/reports', 90)])).toThrow('/dashboard/reports')
  })

  test('a row whose pages are gone is an error, not an empty row', () => {
    expect(() => budgetTable(SITE.filter((p) => p.route !== '/dashboard'))).toThrow('/dashboard (staff)')
  })

  test('the README gets the table between its markers, and only there', () => {
    const readme = `# Shop\n\nBefore.\n\n${BUDGET_TABLE_START}\nold table\n${BUDGET_TABLE_END}\n\nAfter.\n`
    const table = budgetTable(SITE)
    const written = withBudgetTable(readme, table)
    expect(written).toBe(
      `# Shop\n\nBefore.\n\n${BUDGET_TABLE_START}\n${table}\n${BUDGET_TABLE_END}\n\nAfter.\n`,
    )
    expect(withBudgetTable(written, table)).toBe(written)
    expect(() => withBudgetTable('# Shop\n', table)).toThrow('marker')
  })

  test("the repository's README carries the markers", () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8')
    expect(() => withBudgetTable(readme, 'table')).not.toThrow()
  })
})
