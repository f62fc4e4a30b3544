/**
 * The contract of a product file (content/products/*.mdx). The site's content collection validates with it
 * at build time and the API with it at boot, so a bad file fails both with the same message, naming the
 * field. Images are files to the site and plain paths to the API, hence the `image` parameter.
 */
import { type ZodType, z } from 'astro/zod'
import { CATEGORIES } from '../api/rules/catalog'

const shown = (value: unknown) => (typeof value === 'string' ? `"${value}"` : JSON.stringify(value))

/** Required text: 'is missing', 'must be quoted text (got 21)', 'must not be blank'. */
function text(options: { quoted?: boolean } = {}) {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? 'is missing'
          : options.quoted
            ? // YAML reads 21.00 as the number 21, losing the cents the site shows: prices must be quoted.
              `must be quoted text (got ${shown(issue.input)})`
            : `must be text (got ${shown(issue.input)})`,
    })
    .refine((value) => value.trim() !== '', { error: 'must not be blank' })
}

const categoryIds = CATEGORIES.map((category) => category.id) as [
  (typeof CATEGORIES)[number]['id'],
  ...(typeof CATEGORIES)[number]['id'][],
]

/** Spec §3: a list, or a string split on commas and newlines. */
const stringList = z.preprocess(
  (value) =>
    typeof value === 'string'
      ? value
          .split(/[,\n]/)
          .map((part) => part.trim())
          .filter(Boolean)
      : value,
  z.array(z.string().min(1)),
)

export function productSchema<Image extends ZodType>(image: () => Image) {
  return z.object({
    id: z
      .number({ error: 'must be a positive whole number' })
      .int({ error: 'must be a positive whole number' })
      .positive({ error: 'must be a positive whole number' }),
    name: text(),
    slug: text().refine((value) => /^[a-z0-9-]+$/.test(value), {
      error: 'may only hold lower-case letters, digits and dashes',
    }),
    category: z.enum(categoryIds, { error: (issue) => `${shown(issue.input)} is not a known category` }),
    /** Dollars as a decimal string, e.g. '21.00'. The API turns it into cents. */
    price: text({ quoted: true }).refine((value) => /^\d+\.\d{2}$/.test(value) && Number(value) > 0, {
      error: (issue) => `must look like 21.00 (got ${shown(issue.input)})`,
    }),
    /** Shipping weight in ounces, one decimal (spec §3: 2.0 when left out). */
    weight: text({ quoted: true })
      .refine((value) => /^\d+(\.\d)?$/.test(value) && Number(value) > 0, {
        error: (issue) => `must be ounces like 2.0 (got ${shown(issue.input)})`,
      })
      .default('2.0'),
    rating: z
      .number({ error: 'must be a number from 0 to 5' })
      .min(0, { error: 'must be a number from 0 to 5' })
      .max(5, { error: 'must be a number from 0 to 5' }),
    /** Shown beside the stars once the shop collects reviews. */
    reviewCount: z.number().int().nonnegative().default(0),
    badge: z.string().optional(),
    /** A short saving claim shown beside the price, e.g. for bundles. */
    savings: z.string().optional(),
    size: z.string().optional(),
    description: text(),
    details: text(),
    image: image(),
    imageAlt: text(),
    secondaryImage: image().optional(),
    additionalImages: z.array(z.object({ src: image(), alt: z.string().min(1) })).default([]),
    scents: z.array(z.object({ name: z.string(), notes: z.string() })).default([]),
    ingredients: stringList,
    usage: text(),
    benefits: z.array(z.string().min(1)).min(1),
  })
}

/** The first problem of a failed parse as one line: 'price must look like 21.00 (got "21")'. */
export function describeContentIssue(error: z.ZodError): string {
  const issue = error.issues[0]
  if (!issue) return 'is not valid'
  const field = issue.path.map(String).join('.')
  return field ? `${field} ${issue.message}` : issue.message
}
