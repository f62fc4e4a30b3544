import { defineCollection } from 'astro:content'
import { file, glob } from 'astro/loaders'
import { z } from 'astro/zod'

// Content editors own everything under content/. These schemas are the contract: a bad field fails the build
// with the file name and the field, instead of shipping a broken page.

const categoryId = z.enum(['whisker-oil', 'whisker-tamer', 'whisker-wash', 'accessories', 'workforce-repair'])

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

const products = defineCollection({
  loader: glob({ pattern: '*.mdx', base: './content/products' }),
  schema: ({ image }) =>
    z.object({
      id: z.number().int().positive(),
      name: z.string().min(1),
      slug: z.string().regex(/^[a-z0-9-]+$/),
      category: categoryId,
      /** Dollars as a decimal string, e.g. '21.00'. The API turns it into cents. */
      price: z.string().regex(/^\d+\.\d{2}$/),
      /** Shipping weight in ounces, one decimal. */
      weight: z
        .string()
        .regex(/^\d+(\.\d)?$/)
        .default('2.0'),
      rating: z.number().min(0).max(5),
      reviewCount: z.number().int().nonnegative().default(0),
      badge: z.string().optional(),
      /** A short saving claim shown beside the price, e.g. for bundles. */
      savings: z.string().optional(),
      size: z.string().optional(),
      description: z.string().min(1),
      details: z.string().min(1),
      image: image(),
      imageAlt: z.string().min(1),
      secondaryImage: image().optional(),
      additionalImages: z.array(z.object({ src: image(), alt: z.string().min(1) })).default([]),
      scents: z.array(z.object({ name: z.string(), notes: z.string() })).default([]),
      ingredients: stringList,
      usage: z.string().min(1),
      benefits: z.array(z.string().min(1)).min(1),
    }),
})

const pages = defineCollection({
  loader: glob({ pattern: '*.mdx', base: './content/pages' }),
  schema: z
    .object({ title: z.string(), description: z.string(), heading: z.string().optional() })
    .passthrough(),
})

const policies = defineCollection({
  loader: glob({ pattern: '*.mdx', base: './content/policies' }),
  schema: z.object({ title: z.string(), description: z.string(), updated: z.coerce.date() }),
})

const teasers = defineCollection({
  loader: glob({ pattern: '*.mdx', base: './content/teasers' }),
  schema: ({ image }) =>
    z.object({
      title: z.string(),
      description: z.string(),
      eyebrow: z.string().optional(),
      heading: z.string(),
      image: image().optional(),
      imageAlt: z.string().optional(),
      items: z
        .array(
          z.object({
            name: z.string(),
            tag: z.string(),
            description: z.string(),
            image: image().optional(),
            imageAlt: z.string().optional(),
          }),
        )
        .default([]),
      benefits: z.array(z.string()).default([]),
      waitlist: z.boolean().default(false),
    }),
})

const quotes = defineCollection({
  loader: file('./content/quotes.json'),
  schema: z.object({
    name: z.string(),
    trade: z.string(),
    location: z.string(),
    quote: z.string(),
    rating: z.number().min(1).max(5),
  }),
})

const research = defineCollection({
  loader: file('./content/research.json'),
  schema: z.object({ claim: z.string(), source: z.string() }),
})

const reasons = defineCollection({
  loader: file('./content/why-choose-us.json'),
  schema: z.object({ title: z.string(), body: z.string(), icon: z.enum(['leaf', 'hammer', 'recycle']) }),
})

export const collections = { products, pages, policies, teasers, quotes, research, reasons }
