import { defineCollection } from 'astro:content'
import { file, glob } from 'astro/loaders'
import {
  pageSchema,
  policySchema,
  productSchema,
  quoteSchema,
  reasonSchema,
  researchSchema,
  teaserSchema,
} from '../content/schema'

// Content editors own everything under content/ (docs/editing.md). The schemas are the contract, shared with
// `npm run check:content` and the API (content/schema.ts): a bad field fails the build with the file, the
// field and the fix, instead of shipping a broken page. Drafts are in every collection; the pages ask for
// the published ones (site/lib/content.ts).

const products = defineCollection({
  // Each file is its own entry, named by its file: Astro would name it by its `slug` field, so a product
  // copied to start a new one (same slug, until edited) would replace the original under `npm run dev`.
  // Two published products sharing a slug are refused by the content check instead.
  loader: glob({
    pattern: '*.mdx',
    base: './content/products',
    generateId: ({ entry }) => entry.replace(/\.mdx$/, ''),
  }),
  schema: ({ image }) => productSchema(image),
})

const pages = defineCollection({
  loader: glob({ pattern: '*.mdx', base: './content/pages' }),
  schema: ({ image }) => pageSchema(image),
})

const policies = defineCollection({
  loader: glob({ pattern: '*.mdx', base: './content/policies' }),
  schema: policySchema,
})

const teasers = defineCollection({
  loader: glob({ pattern: '*.mdx', base: './content/teasers' }),
  schema: ({ image }) => teaserSchema(image),
})

const quotes = defineCollection({ loader: file('./content/quotes.json'), schema: quoteSchema })
const research = defineCollection({ loader: file('./content/research.json'), schema: researchSchema })
const reasons = defineCollection({ loader: file('./content/why-choose-us.json'), schema: reasonSchema })

export const collections = { products, pages, policies, teasers, quotes, research, reasons }
