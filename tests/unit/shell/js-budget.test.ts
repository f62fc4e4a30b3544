import { describe, expect, test } from 'bun:test'
import { budgetFor, pageScripts, staticImports } from '../../../scripts/js-budget'

describe('js budget: reading the build', () => {
  test('finds static imports in minified chunks, not dynamic ones', () => {
    const code =
      'import{t as e}from"./react.js";import"./side-effect.js";export{a as b}from"./re.js";const x=import("./lazy.js");'
    expect(staticImports(code).sort()).toEqual(['./re.js', './react.js', './side-effect.js'])
  })

  test('collects inline scripts, module scripts, preloads and island chunks', () => {
    const html = `
      <script>(function(){})()</script>
      <script type="module" src="/_astro/page.js"></script>
      <script type="application/ld+json">{"a":1}</script>
      <script type="module">import "/_astro/inline-dep.js"</script>
      <link rel="modulepreload" href="/_astro/pre.js">
      <astro-island component-url="/_astro/Header.js" renderer-url="/_astro/client.js"></astro-island>`
    const { inline, urls } = pageScripts(html)
    expect(inline).toHaveLength(2)
    expect(urls.sort()).toEqual(
      [
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
