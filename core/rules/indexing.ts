/**
 * Which pages search engines may index. Everything the site builds is, except the pages made for one
 * visitor at a time (cart, checkout, account, staff) and those that only say what just happened (newsletter
 * results, the 404 pages). This one rule writes each page's robots meta tag (site/layouts/BaseLayout.astro),
 * filters the sitemap (astro.config.mjs) and writes robots.txt (site/pages/robots.txt.ts), so the three agree;
 * the content check keeps an editor's page out of the sections it hides (content/check.ts).
 */

import { WITHOUT_GOOGLE_DIR } from './site-variants'

/** One visitor's pages, with everything below them (/account/orders). */
export const PRIVATE_PAGES = [
  '/cart',
  '/shipping',
  '/checkout',
  '/success',
  '/login',
  '/signup',
  '/forgot-password',
  '/reset-password',
  '/verify-email',
  '/google-sign-in',
  '/account',
  '/account-deleted',
  '/profile',
  '/dashboard',
] as const

/** Pages a form lands on to say what happened (the newsletter's no-JavaScript answers). */
const RESULT_SECTIONS = ['/newsletter'] as const

/**
 * Built but never served at their own address: the sign-in pages without Google buttons stand in for the
 * usual ones (core/rules/site-variants.ts), so they are no page of their own to index or list.
 */
const BUILT_ONLY = [WITHOUT_GOOGLE_DIR] as const

/** Where robots stay out altogether: the API and the sign-in redirects answer no one but the shop. */
const ROBOTS_ONLY = ['/api/', '/auth/'] as const

/** '/about/', '/about/index.html', 'https://shop.example/about/' → '/about'; the home page is '/'. */
export function pagePath(pathOrUrl: string): string {
  const pathname = /^https?:\/\//.test(pathOrUrl) ? new URL(pathOrUrl).pathname : pathOrUrl
  const path = pathname
    .replace(/\/index\.html$/, '/')
    .replace(/\.html$/, '')
    .replace(/(.)\/+$/, '$1')
  return path.startsWith('/') ? path : `/${path}`
}

const within = (path: string, section: string) => path === section || path.startsWith(`${section}/`)

export function isIndexable(pathOrUrl: string): boolean {
  const path = pagePath(pathOrUrl)
  if (path === '/404' || path.endsWith('/404')) return false
  return ![...PRIVATE_PAGES, ...RESULT_SECTIONS, ...BUILT_ONLY].some((section) => within(path, section))
}

/**
 * robots.txt for the site at `site`. Each private page is matched exactly ('$'), with a query and below
 * it: a plain '/shipping' prefix would also hide '/shipping-policy', and a page an editor names
 * 'success-stories' must not vanish behind '/success'.
 */
export function robotsTxt(site: string | URL): string {
  const origin = new URL(site).origin
  const lines = ['User-agent: *', ...ROBOTS_ONLY.map((prefix) => `Disallow: ${prefix}`)]
  for (const page of PRIVATE_PAGES) {
    lines.push(`Disallow: ${page}$`, `Disallow: ${page}?`, `Disallow: ${page}/`)
  }
  for (const section of RESULT_SECTIONS) lines.push(`Disallow: ${section}/`)
  lines.push('', `Sitemap: ${origin}/sitemap-index.xml`)
  return `${lines.join('\n')}\n`
}

/** A page's canonical address: no trailing slash, as links on the site write it (the home page is '/'). */
export function canonicalUrl(site: string | URL, pathOrUrl: string): string {
  return new URL(pagePath(pathOrUrl), site).href
}

/** Where a page's social card is (site/lib/social-cards.ts): '/' → '/og/index.png', '/products/x' → '/og/products/x.png'. */
export function cardPath(pagePath: string): string {
  return `/og/${pagePath === '/' ? 'index' : pagePath.replace(/^\//, '')}.png`
}
