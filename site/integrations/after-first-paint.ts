/**
 * Nothing the first paint does not need is fetched ahead of it
 * (docs/decisions/030-nothing-fetched-before-first-paint.md):
 *
 * - islands on content pages hydrate with `client:painted` (painted-directive.ts), not `client:load`;
 * - the pages' own module scripts (Astro bundles each component's `<script>` and loads it with
 *   `<script type="module" src>`, which a browser fetches at high priority while it parses) are taken out
 *   of the built HTML and imported by one small inline loader once the first paint is on screen. They only
 *   enhance markup that already works (docs/decisions/009-forms-before-hydration.md), and on a slow phone
 *   they would share the network with the document itself.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AstroIntegration } from 'astro'

/** The id of the JSON list of module scripts the loader imports. */
export const AFTER_PAINT_LIST_ID = 'after-paint-modules'

/**
 * Imports every module listed once the browser reports its first contentful paint (two frames where it
 * reports none; 1.5 s at the latest, for a tab opened in the background). A classic script with the same
 * text on every page, so the CSP allows it by one hash; `import()` loads modules from a classic script too.
 */
export const AFTER_PAINT_LOADER = `(function(){var d=document,list=JSON.parse(d.getElementById('${AFTER_PAINT_LIST_ID}').textContent),done=false;function go(){if(done)return;done=true;list.forEach(function(src){import(src)})}try{var o=new PerformanceObserver(function(entries){if(entries.getEntriesByName('first-contentful-paint').length){o.disconnect();go()}});o.observe({type:'paint',buffered:true})}catch(e){requestAnimationFrame(function(){requestAnimationFrame(go)})}setTimeout(go,1500)})()`

const LOADER_HASH = `'sha256-${createHash('sha256').update(AFTER_PAINT_LOADER).digest('base64')}'`
const MODULE_SCRIPT = /<script type="module" src="([^"]+)"><\/script>/g
const CSP_SCRIPTS = /(<meta http-equiv="content-security-policy" content="[^"]*?script-src 'self')/

/** A built page whose external module scripts are imported after the first paint instead of while it parses. */
export function moduleScriptsAfterPaint(html: string): string {
  const sources = [...html.matchAll(MODULE_SCRIPT)].map((match) => match[1] as string)
  if (sources.length === 0) return html
  if (!CSP_SCRIPTS.test(html)) throw new Error('a page with module scripts has no script-src in its CSP')
  const loader = `<script type="application/json" id="${AFTER_PAINT_LIST_ID}">${JSON.stringify(sources)}</script><script>${AFTER_PAINT_LOADER}</script>`
  return html
    .replace(MODULE_SCRIPT, '')
    .replace(CSP_SCRIPTS, `$1 ${LOADER_HASH}`)
    .replace('</body>', `${loader}</body>`)
}

function* htmlFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) yield* htmlFiles(path)
    else if (name.endsWith('.html')) yield path
  }
}

export function afterFirstPaint(): AstroIntegration {
  return {
    name: 'grit-and-whisker:after-first-paint',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({
          name: 'painted',
          entrypoint: fileURLToPath(new URL('./painted-directive.ts', import.meta.url)),
        })
      },
      'astro:build:done': ({ dir }) => {
        for (const file of htmlFiles(fileURLToPath(dir))) {
          const html = readFileSync(file, 'utf8')
          const moved = moduleScriptsAfterPaint(html)
          if (moved !== html) writeFileSync(file, moved)
        }
      },
    },
  }
}
