import { afterAll, describe, expect, test } from 'bun:test'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { REPO_ROOT } from '../../../content/read'
import { renderCard, socialCards, titleLines } from '../../../site/lib/social-cards'

const roots: string[] = []
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true })
})

/** A copy of the content and art, with its own card cache. */
function copyOfTheShop(): string {
  const root = mkdtempSync(join(tmpdir(), 'cards-'))
  roots.push(root)
  for (const folder of ['content', 'site/assets'])
    cpSync(join(REPO_ROOT, folder), join(root, folder), { recursive: true })
  return root
}

describe('social cards', () => {
  test('one per indexable page: home, shop, each product and each content page, from its own art', () => {
    const cards = socialCards({ drafts: false, root: REPO_ROOT })
    const paths = cards.map((card) => card.path)
    expect(paths).toEqual(
      expect.arrayContaining([
        '/',
        '/shop',
        '/products/whisker-oil',
        '/about',
        '/x-treme',
        '/returns-policy',
      ]),
    )
    expect(new Set(paths).size).toBe(paths.length)
    const oil = cards.find((card) => card.path === '/products/whisker-oil')
    expect(oil).toMatchObject({ title: 'Hammered Citrus', subtitle: '$21.00' })
    expect(oil?.art).toEndWith('site/assets/products/whisker-oil.svg')
    // A policy has no picture of its own: the logo, whole.
    expect(cards.find((card) => card.path === '/returns-policy')).toMatchObject({ fit: 'contain' })
    expect(cards.find((card) => card.path === '/returns-policy')?.art).toEndWith('site/assets/logo.svg')
  })

  test('a draft gets no card in the build, and one under npm run dev', () => {
    const root = copyOfTheShop()
    const file = join(root, 'content/teasers/x-treme.mdx')
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^title:/m, 'draft: true\ntitle:'))
    expect(socialCards({ drafts: false, root }).map((card) => card.path)).not.toContain('/x-treme')
    expect(socialCards({ drafts: true, root }).map((card) => card.path)).toContain('/x-treme')
  })

  test('a 1200 × 630 PNG, made once and then read from the cache', async () => {
    const root = copyOfTheShop()
    const [card] = socialCards({ drafts: false, root }).filter((each) => each.path === '/products/repair')
    if (!card) throw new Error('no card for /products/repair')
    const png = await renderCard(card, root)
    expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: 1200, height: 630 })
    const cache = join(root, 'node_modules/.cache/social-cards')
    expect(readdirSync(cache)).toHaveLength(1)
    const again = await renderCard(card, root)
    expect(Buffer.from(again).equals(Buffer.from(png))).toBe(true)
    expect(readdirSync(cache)).toHaveLength(1)
    // New words, new card.
    await renderCard({ ...card, subtitle: '$14.00' }, root)
    expect(readdirSync(cache)).toHaveLength(2)
  })

  test('titles take as few lines as fit, at most three, largest first', () => {
    expect(titleLines('Grit & Whisker')).toEqual({ size: 76, lines: ['GRIT &', 'WHISKER'] })
    const long = titleLines('Workforce Repair Original Grit')
    expect(long.lines.length).toBeLessThanOrEqual(3)
    const huge = titleLines('A'.repeat(200))
    expect(huge.lines).toHaveLength(3)
    expect(huge.lines[2]).toEndWith('…')
  })
})
