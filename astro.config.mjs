// @ts-check
import mdx from '@astrojs/mdx'
import react from '@astrojs/react'
import { defineConfig } from 'astro/config'
import UnoCSS from 'unocss/astro'

// Every page is prerendered to static HTML; the Bun server (api/main.ts) serves dist/ and the API on one origin.
export default defineConfig({
  site: process.env.PUBLIC_SITE_URL ?? 'http://localhost:4321',
  srcDir: './site',
  publicDir: './public',
  outDir: './dist',
  output: 'static',
  trailingSlash: 'ignore',
  build: { format: 'directory', inlineStylesheets: 'auto' },
  prefetch: { prefetchAll: false, defaultStrategy: 'hover' },
  // Each page gets a CSP <meta> listing the hashes of its own scripts and styles: no 'unsafe-inline'.
  // Inline scripts written by hand (the theme script in BaseLayout) add their hash with Astro.csp.
  // Everything else comes from our own origin only. connect-src is spelled out although default-src
  // implies it: /checkout adds Stripe's API to it, and Astro merges that into this list; alone, the page's
  // connect-src would take the place of default-src and stop the shop's own /api calls.
  security: { csp: { directives: ["default-src 'self'", "connect-src 'self'"] } },
  // Shiki colours code with inline styles, which that CSP refuses; Prism uses classes.
  markdown: { syntaxHighlight: 'prism' },
  integrations: [UnoCSS({ injectReset: true }), react(), mdx()],
  vite: {
    // The API's pure rules are shared with the site; nothing else under api/ may be bundled for the browser.
    resolve: { alias: { '@rules': new URL('./api/rules', import.meta.url).pathname } },
  },
})
