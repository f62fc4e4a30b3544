/**
 * Social cards: a 1200 × 630 PNG per indexable page, made at build time from the page's own art (its SVG in
 * site/assets, as the content names it) and its title, for og:image and twitter:card. Social networks do
 * not show SVG, hence PNG. Each card is cached by the hash of what it is made from, so a rebuild renders
 * only the cards whose art or words changed.
 *
 * Build-time only (sharp, the file system): the page endpoint site/pages/og/[...card].png.ts serves them.
 * Text is set with the machine's fonts (any narrow or plain sans-serif; Debian's fonts-liberation or
 * fonts-dejavu): a machine without fonts renders the art with no words.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { escapeHtml } from '@core/rules/html'
import { formatCurrency } from '@core/rules/money'
import sharp from 'sharp'
import { MDX_COLLECTIONS, type ProductData, readCollection } from '../../content/read'
import { isPublished } from '../../content/schema'
import { SHOP_NAME } from './brand'

export const CARD_WIDTH = 1200
export const CARD_HEIGHT = 630

/** Bump when the drawing below changes, so cached cards are made again. */
const CARD_VERSION = 2

export interface SocialCard {
  /** The page the card is for, as pagePath() writes it: '/', '/shop', '/products/whisker-oil'. */
  path: string
  title: string
  /** A second line: the price on product pages. */
  subtitle?: string
  /** Absolute path of the SVG (or other picture) the card shows. */
  art: string
  /** 'cover' fills the right half with the art (cropped at its edges); 'contain' shows all of it, smaller. */
  fit?: 'cover' | 'contain'
}

/** The repository root: Astro and the npm scripts run from it. */
const ROOT = () => process.cwd()

/** Every indexable page's card: the home page, the shop, each product and each content page. */
export function socialCards(options: { drafts: boolean; root?: string }): SocialCard[] {
  const root = options.root ?? ROOT()
  const asset = (name: string) => resolve(root, 'site/assets', name)
  const cards: SocialCard[] = [
    { path: '/', title: SHOP_NAME, subtitle: 'Tough on work. Easy on skin.', art: asset('hero.svg') },
    { path: '/shop', title: 'Shop Collection', art: asset('collections/original-grit.svg') },
  ]
  for (const collection of MDX_COLLECTIONS) {
    const { entries } = readCollection(collection, join(root, 'content', collection), root)
    for (const entry of entries) {
      if (!isPublished({ draft: entry.draft }, options)) continue
      const data = entry.data as Record<string, unknown>
      // A page without a picture of its own (a policy) shows the shop's logo.
      const art =
        typeof data.image === 'string'
          ? { art: data.image }
          : { art: asset('logo.svg'), fit: 'contain' as const }
      if (collection === 'products') {
        const product = data as ProductData
        cards.push({
          path: `/products/${product.slug}`,
          title: product.name,
          subtitle: formatCurrency(product.price),
          ...art,
        })
      } else {
        cards.push({ path: `/${entry.id}`, title: String(data.title), ...art })
      }
    }
  }
  return cards
}

/** Width of the words' panel, and the text's margin inside it. */
const PANEL = 600
const MARGIN = 56
/** A wide estimate of a bold capital's width in em, so lines fit with the widest fallback font too. */
const CAPITAL_EM = 0.68

/** The title in as few lines as fit (at most three), at the largest size that allows it. */
export function titleLines(title: string): { size: number; lines: string[] } {
  const words = title.toUpperCase().split(/\s+/).filter(Boolean)
  for (const size of [76, 68, 60, 52, 46, 40]) {
    const perLine = Math.floor((PANEL - 2 * MARGIN) / (size * CAPITAL_EM))
    const lines: string[] = []
    for (const word of words) {
      const last = lines.at(-1)
      if (last !== undefined && `${last} ${word}`.length <= perLine)
        lines[lines.length - 1] = `${last} ${word}`
      else lines.push(word)
    }
    if (lines.length <= 3 && lines.every((line) => line.length <= perLine)) return { size, lines }
  }
  // Too long for three lines even small: cut, and say so with an ellipsis.
  const perLine = Math.floor((PANEL - 2 * MARGIN) / (40 * CAPITAL_EM))
  const text = words.join(' ')
  const lines = [0, 1, 2].map((index) => text.slice(index * perLine, (index + 1) * perLine)).filter(Boolean)
  if (text.length > 3 * perLine) lines[2] = `${(lines[2] ?? '').slice(0, perLine - 1)}…`
  return { size: 40, lines }
}

/** The words' panel: the shop's name, the title and the subtitle on the site's dark colours. */
function panelSvg(card: SocialCard): string {
  const { size, lines } = titleLines(card.title)
  const lineHeight = Math.round(size * 1.05)
  const blockHeight = lines.length * lineHeight + (card.subtitle ? 70 : 0)
  const top = Math.round((CARD_HEIGHT - blockHeight) / 2 + size * 0.8)
  const font =
    "'Liberation Sans Narrow', 'Arial Narrow', 'DejaVu Sans Condensed', 'Liberation Sans', Arial, sans-serif"
  const title = lines
    .map(
      (line, index) =>
        `<text x="${MARGIN}" y="${top + index * lineHeight}" font-size="${size}">${escapeHtml(line)}</text>`,
    )
    .join('')
  // A price is short and large; a sentence smaller, to fit the panel.
  const subtitleSize = card.subtitle && card.subtitle.length <= 12 ? 44 : 32
  const subtitle = card.subtitle
    ? `<text x="${MARGIN}" y="${top + lines.length * lineHeight + 34}" font-size="${subtitleSize}" fill="#f28c3b">${escapeHtml(card.subtitle)}</text>`
    : ''
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${PANEL}" height="${CARD_HEIGHT}">
<rect width="${PANEL}" height="${CARD_HEIGHT}" fill="#1c1a17"/>
<rect y="${CARD_HEIGHT - 14}" width="${PANEL}" height="14" fill="#b93f0b"/>
<g font-family="${font}" font-weight="700">
<text x="${MARGIN}" y="84" font-size="26" letter-spacing="4" fill="#f28c3b">${escapeHtml(SHOP_NAME.toUpperCase())}</text>
<g fill="#f3efe8">${title}</g>${subtitle}
</g></svg>`
}

async function draw(card: SocialCard, artBytes: Buffer): Promise<Buffer> {
  const artWidth = CARD_WIDTH - PANEL
  const background = { r: 0x1c, g: 0x1a, b: 0x17, alpha: 1 }
  // 'contain': the whole picture at 440 px, centred on the panel's colour.
  const art = await (card.fit === 'contain'
    ? sharp(artBytes, { density: 600 })
        .resize(440, 440, { fit: 'contain', background })
        .extend({ top: 95, bottom: 95, left: 80, right: 80, background })
    : sharp(artBytes, { density: 144 }).resize(artWidth, CARD_HEIGHT, { fit: 'cover', position: 'centre' })
  )
    .png()
    .toBuffer()
  return sharp({ create: { width: CARD_WIDTH, height: CARD_HEIGHT, channels: 3, background: '#1c1a17' } })
    .composite([
      { input: Buffer.from(panelSvg(card)), left: 0, top: 0 },
      { input: art, left: PANEL, top: 0 },
    ])
    .png({ compressionLevel: 9, palette: true, quality: 95 })
    .toBuffer()
}

/** The card's PNG, from the cache (node_modules/.cache/social-cards) when its art, words and drawing are unchanged. */
export async function renderCard(card: SocialCard, root: string = ROOT()): Promise<Uint8Array<ArrayBuffer>> {
  const cacheDir = join(root, 'node_modules', '.cache', 'social-cards')
  const artBytes = readFileSync(card.art)
  const key = createHash('sha256')
    .update(
      JSON.stringify({
        version: CARD_VERSION,
        title: card.title,
        subtitle: card.subtitle ?? null,
        fit: card.fit ?? 'cover',
      }),
    )
    .update(artBytes)
    .digest('hex')
    .slice(0, 32)
  const cached = join(cacheDir, `${key}.png`)
  if (existsSync(cached)) return Uint8Array.from(readFileSync(cached))
  const png = await draw(card, artBytes)
  mkdirSync(cacheDir, { recursive: true })
  // Written whole, then renamed: a build stopped halfway never leaves half a card in the cache.
  const partial = `${cached}.${process.pid}.tmp`
  writeFileSync(partial, png)
  renameSync(partial, cached)
  return Uint8Array.from(png)
}

/** The shop's logo as a 512 px PNG, for the Organization's logo in search results. */
export async function renderLogo(root: string = ROOT()): Promise<Uint8Array<ArrayBuffer>> {
  return Uint8Array.from(
    await sharp(readFileSync(resolve(root, 'site/assets/logo.svg')), { density: 1152 })
      .resize(512, 512)
      .png()
      .toBuffer(),
  )
}
