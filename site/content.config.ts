import { defineCollection } from 'astro:content'
import { file, glob } from 'astro/loaders'
import { z } from 'astro/zod'
import { productSchema } from '../content/schema'

// Content editors own everything under content/. These schemas are the contract: a bad field fails the build
// with the file name and the field, instead of shipping a broken page.

const products = defineCollection({
  loader: glob({ pattern: '*.mdx', base: './content/products' }),
  // The same schema the API checks the catalogue with at boot (content/schema.ts).
  schema: ({ image }) => productSchema(image),
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
