/**
 * The contract of every content file. The site's content collections (site/content.config.ts) validate with
 * these schemas at build time, `npm run check:content` and the build's first step (content/check.ts) with
 * the same schemas, and the API reads product files with them at boot: a mistake fails all of them with one
 * message that names the field and the fix. Images are files to the site and paths to the checks, hence the
 * `image` parameter.
 *
 * Messages are read by content editors, who know Markdown and git, not TypeScript: each says what is wrong
 * and what to write instead. Where a value has one sensible reading it is taken (a price of 19 is 19.00).
 */

import { CATEGORIES, normalizeCategory } from '@core/rules/catalog'
import { centsToDollars, dollarsToCents } from '@core/rules/money'
import { type ZodType, z } from 'astro/zod'

const shown = (value: unknown) =>
  value instanceof Date
    ? value.toISOString().slice(0, 10)
    : typeof value === 'string'
      ? `"${value}"`
      : JSON.stringify(value)

const MISSING = 'is missing: add it between the --- lines at the top of the file'

/** Text. A number or a date has one reading as text, so it is taken as written. */
function text(options: { missing?: string } = {}) {
  return z.preprocess(
    (value) =>
      typeof value === 'number' && Number.isFinite(value)
        ? String(value)
        : value instanceof Date
          ? value.toISOString().slice(0, 10)
          : value,
    z
      .string({
        error: (issue) =>
          issue.input === undefined
            ? (options.missing ?? MISSING)
            : `must be text (got ${shown(issue.input)}): write it on one line after the colon, or as a list only where the field is a list`,
      })
      .trim()
      .min(1, { error: 'is empty: write it after the colon' }),
  )
}

/** Optional text; an empty value counts as left out. */
function optionalText() {
  return z.preprocess((value) => (value === null || value === '' ? undefined : value), text().optional())
}

/** A whole number: 7 or "7". */
function wholeNumber(what: string) {
  return z.preprocess(
    (value) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
    z
      .number({
        error: (issue) =>
          issue.input === undefined ? MISSING : `must be ${what} (got ${shown(issue.input)})`,
      })
      .int({ error: (issue) => `must be ${what} (got ${shown(issue.input)})` }),
  )
}

/** true or false; yes and no (any capitals) read the same. */
function yesNo() {
  return z.preprocess(
    (value) => {
      if (typeof value !== 'string') return value
      const word = value.trim().toLowerCase()
      return word === 'true' || word === 'yes' ? true : word === 'false' || word === 'no' ? false : value
    },
    z.boolean({ error: (issue) => `must be true or false (got ${shown(issue.input)})` }),
  )
}

/**
 * Dollars and cents as text, '21.00': YAML reads 21.00 as the number 21, and 21, "21", 21.5 and "$21"
 * have one reading each, so they are taken as 21.00, 21.00, 21.50 and 21.00. The API turns it into cents.
 */
export function priceText(value: unknown): unknown {
  const raw = typeof value === 'string' ? value.trim().replace(/^\$\s*/, '') : value
  if (typeof raw !== 'string' && typeof raw !== 'number') return value
  const cents = dollarsToCents(raw)
  return cents === null ? value : centsToDollars(cents)
}

const price = z.preprocess(
  priceText,
  z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? `${MISSING}, like price: 19.00`
          : `write it in dollars and cents, like 19.00 (got ${shown(issue.input)})`,
    })
    .refine((value) => /^\d+\.\d{2}$/.test(value), {
      error: (issue) => `write it in dollars and cents, like 19.00 (got ${shown(issue.input)})`,
      abort: true,
    })
    .refine((value) => Number(value) > 0, { error: 'must be more than 0.00' }),
)

/** Ounces with one decimal, '2.0': 2, "2" and 2.50 have one reading each. */
export function weightText(value: unknown): unknown {
  const raw = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : null
  const match = raw === null ? null : /^(\d+)(?:\.(\d*?)0*)?$/.exec(raw)
  if (!match || (match[2] ?? '').length > 1) return value
  return `${Number(match[1])}.${match[2] || '0'}`
}

/** Shipping weight in ounces, one decimal (2.0 when left out). */
const weight = z.preprocess(
  weightText,
  z
    .string({ error: (issue) => `write ounces with one decimal, like 2.5 (got ${shown(issue.input)})` })
    .refine((value) => /^\d+\.\d$/.test(value), {
      error: (issue) => `write ounces with one decimal, like 2.5 (got ${shown(issue.input)})`,
      abort: true,
    })
    .refine((value) => Number(value) > 0, { error: 'must be more than 0.0 ounces' })
    .default('2.0'),
)

const categoryIds = CATEGORIES.map((category) => category.id) as [
  (typeof CATEGORIES)[number]['id'],
  ...(typeof CATEGORIES)[number]['id'][],
]

/** A category id in any capitals; the old 'repair' is the Workforce Repair range. */
const category = z.preprocess(
  (value) => (typeof value === 'string' ? (normalizeCategory(value) ?? value) : value),
  z.enum(categoryIds, {
    error: (issue) =>
      issue.input === undefined
        ? `${MISSING}, one of ${categoryIds.join(', ')}`
        : `${shown(issue.input)} is not a category: use one of ${categoryIds.join(', ')}`,
  }),
)

/** 'Beard Oil Deluxe' → 'beard-oil-deluxe': the name a slug or file name should have. */
export function slugify(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}

const slug = text().refine((value) => /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value), {
  error: (issue) =>
    `is part of the page's address, so it may only hold lower-case letters, digits and dashes: write it as ${slugify(String(issue.input)) || 'my-product'}`,
})

/** A list; plain text is split on commas and new lines (an ingredients line reads as a list). */
const splitList = z.preprocess(
  (value) =>
    typeof value === 'string'
      ? value
          .split(/[,\n]/)
          .map((part) => part.trim())
          .filter(Boolean)
      : value,
  z.array(text(), {
    error: (issue) => (issue.input === undefined ? MISSING : 'must be a list: one "- item" per line'),
  }),
)

/** A list of sentences; one sentence on its own is a list of one. */
function sentences() {
  return z.preprocess(
    (value) => (typeof value === 'string' ? [value] : value),
    z.array(text(), {
      error: (issue) => (issue.input === undefined ? MISSING : 'must be a list: one "- item" per line'),
    }),
  )
}

const rating = z.preprocess(
  (value) => (typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value),
  z
    .number({
      error: (issue) => (issue.input === undefined ? MISSING : 'must be a number from 0 to 5, like 4.5'),
    })
    .min(0, { error: 'must be a number from 0 to 5, like 4.5' })
    .max(5, { error: 'must be a number from 0 to 5, like 4.5' }),
)

const ALT_MISSING =
  'is missing: describe the picture in a sentence for people who cannot see it (what is shown, not "image of")'

/** `draft: true` hides a file from the built site, its sitemap and the catalogue; `npm run dev` shows it. */
const draft = yesNo().default(false)

/** The fields a file of each collection may have, for 'is not a field' messages. */
function strict<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.strictObject(shape)
}

export function productSchema<Image extends ZodType>(image: () => Image) {
  return strict({
    id: wholeNumber('a whole number above 0, like 6').refine((value) => value > 0, {
      error: 'must be a whole number above 0, like 6',
    }),
    name: text(),
    slug,
    category,
    price,
    weight,
    rating,
    /** Shown beside the stars once the shop collects reviews. */
    reviewCount: wholeNumber('a whole number, like 12').default(0),
    badge: optionalText(),
    /** A short saving claim shown beside the price, e.g. for bundles. */
    savings: optionalText(),
    size: optionalText(),
    description: text(),
    details: text(),
    image: image(),
    imageAlt: text({ missing: ALT_MISSING }),
    secondaryImage: image().optional(),
    additionalImages: z
      .array(strict({ src: image(), alt: text() }), {
        error: 'must be a list of pictures, each with src: and alt:',
      })
      .default([]),
    scents: z
      .array(strict({ name: text(), notes: text() }), {
        error: 'must be a list of scents, each with name: and notes:',
      })
      // Stock is counted and sold by a scent's name, and the shopper picks it by its name: two alike (in
      // any capitals) would be one count under two choices.
      .superRefine((scents, context) => {
        const seen = new Set<string>()
        for (const [index, scent] of scents.entries()) {
          // Spaces of any kind and number read alike on the page: folded too.
          const name = scent.name.toLowerCase().replace(/\s+/g, ' ').trim()
          if (seen.has(name)) {
            context.addIssue({
              code: 'custom',
              path: [index, 'name'],
              message: `another scent of this product is named ${scent.name} already: give each its own name`,
            })
          }
          seen.add(name)
        }
      })
      .default([]),
    ingredients: splitList,
    usage: text(),
    benefits: sentences().refine((list) => list.length > 0, { error: 'needs at least one benefit' }),
    draft,
  })
}

/** A picture and the sentence that describes it: alt text is required with every image. */
function withAlt<Schema extends z.ZodType<{ image?: unknown; imageAlt?: string }>>(schema: Schema) {
  return schema.superRefine((data, context) => {
    if (data.image !== undefined && data.imageAlt === undefined) {
      context.addIssue({ code: 'custom', path: ['imageAlt'], message: ALT_MISSING })
    }
  })
}

/** content/pages: an about-style page built from MDX sections, at /<file name>. */
export function pageSchema<Image extends ZodType>(image: () => Image) {
  return withAlt(
    strict({
      title: text(),
      description: text(),
      heading: optionalText(),
      eyebrow: optionalText(),
      lead: optionalText(),
      image: image().optional(),
      imageAlt: optionalText(),
      draft,
    }),
  )
}

/** content/policies: a policy page at /<file name>, with its last-updated date. */
export const policySchema = strict({
  title: text(),
  description: text(),
  updated: z.preprocess(
    (value) =>
      typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value.trim())
        ? new Date(`${value.trim()}T00:00:00Z`)
        : value,
    z.date({
      error: (issue) =>
        issue.input === undefined
          ? `${MISSING}, like updated: 2025-06-15`
          : `write the date as 2025-06-15 (got ${shown(issue.input)})`,
    }),
  ),
  draft,
})

/** content/teasers: a 'coming soon' page at /<file name>. */
export function teaserSchema<Image extends ZodType>(image: () => Image) {
  return withAlt(
    strict({
      title: text(),
      description: text(),
      eyebrow: optionalText(),
      heading: text(),
      image: image().optional(),
      imageAlt: optionalText(),
      items: z
        .array(
          withAlt(
            strict({
              name: text(),
              tag: text(),
              description: text(),
              image: image().optional(),
              imageAlt: optionalText(),
            }),
          ),
          { error: 'must be a list of items, each with name:, tag: and description:' },
        )
        .default([]),
      benefits: sentences().default([]),
      waitlist: yesNo().default(false),
      draft,
    }),
  )
}

/** content/quotes.json: one customer quote per entry. */
export const quoteSchema = z.object({
  name: text(),
  trade: text(),
  location: text(),
  quote: text(),
  rating: z
    .number({ error: 'must be a number of stars from 1 to 5' })
    .min(1, { error: 'must be a number of stars from 1 to 5' })
    .max(5, { error: 'must be a number of stars from 1 to 5' }),
})

/** content/research.json: one claim with its source per entry. */
export const researchSchema = z.object({ claim: text(), source: text() })

/** content/why-choose-us.json: one reason per entry, with one of the site's icons. */
export const reasonSchema = z.object({
  title: text(),
  body: text(),
  icon: z.enum(['leaf', 'hammer', 'recycle'], {
    error: (issue) => `${shown(issue.input)} is not an icon here: use leaf, hammer or recycle`,
  }),
})

/** Whether a file is on the built site: drafts only show in `npm run dev`. */
export function isPublished(data: { draft?: boolean }, options: { drafts: boolean }): boolean {
  return options.drafts || data.draft !== true
}

/** Closest known field to a misspelt one ('badeg' → 'badge'), when one is close enough to suggest. */
function closest(word: string, known: readonly string[]): string | null {
  const distance = (a: string, b: string) => {
    const row = Array.from({ length: b.length + 1 }, (_, index) => index)
    for (let i = 1; i <= a.length; i++) {
      let previous = row[0] ?? 0
      row[0] = i
      for (let j = 1; j <= b.length; j++) {
        const current = row[j] ?? 0
        row[j] = Math.min(current + 1, (row[j - 1] ?? 0) + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1))
        previous = current
      }
    }
    return row[b.length] ?? Number.POSITIVE_INFINITY
  }
  let best: string | null = null
  let bestDistance = 3
  for (const candidate of known) {
    const d = distance(word.toLowerCase(), candidate.toLowerCase())
    if (d < bestDistance) {
      best = candidate
      bestDistance = d
    }
  }
  return best
}

/** The field an issue is about, as an editor reads it: 'additionalImages, item 2, alt'. */
function fieldName(path: readonly PropertyKey[]): string {
  return path.map((part) => (typeof part === 'number' ? `item ${part + 1}` : String(part))).join(', ')
}

/**
 * Every problem of a failed parse, one line each: 'price: write it in dollars and cents, like 19.00 (got
 * "19.999")'. `known` lists the fields the file may have, for spelling suggestions.
 */
export function describeContentIssues(error: z.ZodError, known: readonly string[] = []): string[] {
  return error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys
        .map((key) => {
          const suggestion = closest(key, known)
          const field = fieldName([...issue.path, key])
          return `${field}: is not a field this file can have${suggestion ? ` (did you mean ${suggestion}?)` : ': check its spelling, or remove it'}`
        })
        .join('\n')
    }
    const field = fieldName(issue.path)
    return field ? `${field}: ${issue.message}` : issue.message
  })
}

/** The first problem of a failed parse as one line. */
export function describeContentIssue(error: z.ZodError, known: readonly string[] = []): string {
  return describeContentIssues(error, known)[0] ?? 'is not valid'
}

/** The top-level field names of a schema, for 'did you mean' suggestions. */
export function fieldsOf(schema: ZodType): string[] {
  let inner: unknown = schema
  // withAlt wraps the object in a refinement; reach the object's shape through it.
  for (let depth = 0; depth < 4 && inner && typeof inner === 'object'; depth++) {
    const candidate = inner as {
      shape?: Record<string, unknown>
      def?: { in?: unknown; schema?: unknown; innerType?: unknown }
    }
    if (candidate.shape) return Object.keys(candidate.shape)
    inner = candidate.def?.in ?? candidate.def?.schema ?? candidate.def?.innerType
  }
  return []
}
