import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { builtOrigin, builtOriginWarning, loadStaticSite } from '../../../api/plugins/static-site'

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
