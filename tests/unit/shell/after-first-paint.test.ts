// The build step that takes module scripts out of a page and imports them after its first paint
// (docs/decisions/030-nothing-fetched-before-first-paint.md): what it writes, and what it leaves alone.
import { describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import {
  AFTER_PAINT_LIST_ID,
  AFTER_PAINT_LOADER,
  moduleScriptsAfterPaint,
} from '../../../site/integrations/after-first-paint'

const loaderHash = `'sha256-${createHash('sha256').update(AFTER_PAINT_LOADER).digest('base64')}'`
const csp = `<meta http-equiv="content-security-policy" content="default-src 'self'; script-src 'self' 'sha256-abc='; style-src 'self'">`

const page = (body: string) => `<!doctype html><html><head>${csp}</head><body>${body}</body></html>`

describe('module scripts after the first paint', () => {
  test('each external module script is listed, in order, for one loader at the end of the body', () => {
    const built = moduleScriptsAfterPaint(
      page(
        '<p>Hi</p><script type="module" src="/_astro/page.A.js"></script><form></form><script type="module" src="/_astro/Form.B.js"></script>',
      ),
    )
    expect(built).not.toContain('<script type="module" src=')
    expect(built).toContain(
      `<p>Hi</p><form></form><script type="application/json" id="${AFTER_PAINT_LIST_ID}">["/_astro/page.A.js","/_astro/Form.B.js"]</script><script>${AFTER_PAINT_LOADER}</script></body>`,
    )
  })

  test('the loader is allowed by its hash beside the page’s own, and nothing else in the CSP changes', () => {
    const built = moduleScriptsAfterPaint(page('<script type="module" src="/_astro/a.js"></script>'))
    expect(built).toContain(
      `content="default-src 'self'; script-src 'self' ${loaderHash} 'sha256-abc='; style-src 'self'">`,
    )
  })

  test('a page without module scripts, and inline module scripts, are left as they are', () => {
    const plain = page('<script type="module">console.log(1)</script><script>var a=1</script>')
    expect(moduleScriptsAfterPaint(plain)).toBe(plain)
  })

  test('a page with module scripts and no script-src to allow the loader stops the build', () => {
    expect(() =>
      moduleScriptsAfterPaint('<html><body><script type="module" src="/a.js"></script></body></html>'),
    ).toThrow('no script-src')
  })

  test('the loader imports every listed module once, after the first contentful paint is reported', async () => {
    const imported: string[] = []
    let observer: ((list: { getEntriesByName(name: string): unknown[] }) => void) | undefined
    let disconnected = false
    const timers: (() => void)[] = []
    const globals = {
      document: {
        getElementById: (id: string) =>
          id === AFTER_PAINT_LIST_ID ? { textContent: '["/a.js","/b.js"]' } : null,
      },
      PerformanceObserver: class {
        constructor(callback: typeof observer) {
          observer = callback
        }
        observe(options: { type: string; buffered: boolean }) {
          expect(options).toEqual({ type: 'paint', buffered: true })
        }
        disconnect() {
          disconnected = true
        }
      },
      setTimeout: (callback: () => void) => timers.push(callback),
      requestAnimationFrame: () => {
        throw new Error('not used where paints are reported')
      },
      load: (src: string) => imported.push(src),
    }
    // `import(src)` is syntax, not a function: the test runs the loader with it spelled as a call it can see.
    const run = new Function(...Object.keys(globals), AFTER_PAINT_LOADER.replaceAll('import(', 'load('))
    run(...Object.values(globals))
    expect(imported).toEqual([])
    observer?.({ getEntriesByName: () => [] })
    expect(imported).toEqual([])
    observer?.({ getEntriesByName: (name) => (name === 'first-contentful-paint' ? [{}] : []) })
    expect(imported).toEqual(['/a.js', '/b.js'])
    expect(disconnected).toBe(true)
    // The 1.5 s fallback that follows imports nothing twice.
    for (const timer of timers) timer()
    expect(imported).toEqual(['/a.js', '/b.js'])
  })
})
