import { afterAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import {
  builtOrigin,
  builtOriginWarning,
  incompleteSiteError,
  loadStaticSite,
} from '../../../api/plugins/static-site'

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function siteWith(robots: string | null) {
  const dir = mkdtempSync(join(tmpdir(), 'built-site-'))
  dirs.push(dir)
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>x</title>')
  if (robots !== null) writeFileSync(join(dir, 'robots.txt'), robots)
  return loadStaticSite(dir)
}

describe('the origin the site was built for', () => {
  test('is the one its robots.txt names the sitemap on', () => {
    const site = siteWith(
      'User-agent: *\nDisallow: /api/\n\nSitemap: https://shop.example/sitemap-index.xml\n',
    )
    expect(builtOrigin(site)).toBe('https://shop.example')
    expect(builtOrigin(siteWith(null))).toBeNull()
    expect(builtOrigin(siteWith('User-agent: *\n'))).toBeNull()
  })

  test('a server on another PUBLIC_URL says so at boot: its pages would send search engines elsewhere', () => {
    const site = siteWith('Sitemap: http://localhost:4321/sitemap-index.xml\n')
    expect(builtOriginWarning(site, { publicUrl: 'https://gritandwhisker.example', distDir: './dist' })).toBe(
      'The site in ./dist was built for http://localhost:4321, but PUBLIC_URL is https://gritandwhisker.example: its canonical links, sitemap and social cards point at the other address. Build it again with this PUBLIC_URL (npm run build, or npm start).',
    )
    expect(builtOriginWarning(site, { publicUrl: 'http://localhost:4321', distDir: './dist' })).toBeNull()
    expect(
      builtOriginWarning(siteWith(null), { publicUrl: 'https://x.example', distDir: './dist' }),
    ).toBeNull()
  })
})

describe('a site a build left part way', () => {
  function siteOf(files: string[]) {
    const dir = mkdtempSync(join(tmpdir(), 'built-site-'))
    dirs.push(dir)
    for (const file of files) {
      mkdirSync(dirname(join(dir, file)), { recursive: true })
      writeFileSync(join(dir, file), '<!doctype html><title>x</title>')
    }
    return loadStaticSite(dir)
  }

  test('is refused with what is missing and what to do; a whole site and no site at all are not', () => {
    expect(incompleteSiteError(siteOf(['_astro/site.css', 'about/index.html']), './dist')).toBe(
      'The site in ./dist is incomplete (no /index.html, /shop/index.html, /404.html): the last build stopped part way. Fix what it said and build again (npm run build, or npm start).',
    )
    expect(incompleteSiteError(siteOf(['index.html', 'shop/index.html', '404.html']), './dist')).toBeNull()
    expect(incompleteSiteError(siteOf([]), './dist')).toBeNull()
  })
})
