// @ts-check
import { fileURLToPath } from 'node:url'
import mdx from '@astrojs/mdx'
import react from '@astrojs/react'
import sitemap from '@astrojs/sitemap'
import { publicUrlFrom } from '@core/rules/public-url'
import { defineConfig } from 'astro/config'
import UnoCSS from 'unocss/astro'
import { checkContent } from './content/check'
import { formatProblems } from './content/read'
import { canonicalUrl, isIndexable } from './core/rules/indexing'
import { afterFirstPaint } from './site/integrations/after-first-paint'

/**
 * Content for the command that runs. Drafts show under `astro dev` only: the pages read
 * import.meta.env.SHOW_DRAFTS (site/lib/content.ts), set here from the command, not from NODE_ENV, which
 * a .env may set to development for a production build.
 *
 * And the build's first step: every content file checked as `npm run check:content` checks it. A mistake
 * stops the build with the same messages (file, line, field, fix) before anything is written. `npm run dev`
 * only warns: a half-written draft should not stop the preview.
 */
function content() {
  /** @type {import('astro').AstroIntegration} */
  const integration = {
    name: 'grit-and-whisker:content',
    hooks: {
      'astro:config:setup': ({ command, config, logger, updateConfig }) => {
        updateConfig({
          vite: { define: { 'import.meta.env.SHOW_DRAFTS': JSON.stringify(command === 'dev') } },
        })
        const report = checkContent(fileURLToPath(config.root))
        for (const note of report.notes) logger.info(note)
        if (report.problems.length === 0) return
        const message = formatProblems(report.problems)
        if (command !== 'build') {
          logger.warn(`content problems (npm run check:content):\n${message}`)
          return
        }
        // The messages are the whole story: no stack trace around them, nothing built.
        logger.error(
          `content/ has ${report.problems.length === 1 ? 'a mistake' : `${report.problems.length} mistakes`}, so nothing was built:\n${message}\nFix each line above (npm run check:content checks again in a second), then build again.`,
        )
        process.exit(1)
      },
    },
  }
  return integration
}

// The shop's public origin: the build's canonical links, sitemap, robots.txt and social cards are absolute
// on it. PUBLIC_URL (or http://localhost:PORT), read by the rule the server uses (core/rules/public-url.ts);
// `npm start` builds and serves with the same environment (and Bun reads .env for both).
const site = publicUrlFrom(process.env)

// Every page is prerendered to static HTML; the Bun server (api/main.ts) serves dist/ and the API on one origin.
export default defineConfig({
  site,
  srcDir: './site',
  publicDir: './public',
  outDir: './dist',
  output: 'static',
  trailingSlash: 'ignore',
  build: { format: 'directory', inlineStylesheets: 'always' },
  // Each page gets a CSP <meta> listing the hashes of its own scripts and styles: no 'unsafe-inline'.
  // Inline scripts written by hand (the theme script in BaseLayout) add their hash with Astro.csp.
  // Everything else comes from our own origin only. connect-src is spelled out although default-src
  // implies it: /checkout adds Stripe's API to it, and Astro merges that into this list; alone, the page's
  // connect-src would take the place of default-src and stop the shop's own /api calls.
  security: { csp: { directives: ["default-src 'self'", "connect-src 'self'"] } },
  // Shiki colours code with inline styles, which that CSP refuses; Prism uses classes.
  markdown: { syntaxHighlight: 'prism' },
  integrations: [
    content(),
    afterFirstPaint(),
    UnoCSS({ injectReset: true }),
    react(),
    mdx(),
    // Indexable pages only (core/rules/indexing.ts), at their canonical address (no trailing slash).
    sitemap({
      filter: (page) => isIndexable(page) && !/\.\w+$/.test(new URL(page).pathname),
      serialize: (item) => ({ ...item, url: canonicalUrl(site, item.url) }),
    }),
  ],
  vite: {
    // The pure rules and contracts in core/ are shared with the site; nothing under api/ is bundled for the browser.
    resolve: { alias: { '@core': new URL('./core', import.meta.url).pathname } },
    build: {
      rollupOptions: {
        // Astro marks each MDX file with a directive of its own, which the bundler warns it cannot keep, in a
        // box naming the file: an editor reads it as a mistake in their file. Astro handles it; others pass.
        onwarn(warning, warn) {
          if (warning.code === 'MODULE_LEVEL_DIRECTIVE' && warning.message.includes('astro:head-inject'))
            return
          warn(warning)
        },
      },
    },
  },
})
