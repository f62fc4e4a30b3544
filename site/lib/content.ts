/**
 * The content the site shows: every file under `npm run dev`, drafts (`draft: true`) left out of the build,
 * and so out of the sitemap, the social cards and the catalogue. Pages ask here, never getCollection
 * directly, so no page can show a draft on the built site (tests/unit/seo/drafts.test.ts checks).
 */
import { type CollectionEntry, getCollection } from 'astro:content'
import { isPublished } from '../../content/schema'

type Editable = 'products' | 'pages' | 'policies' | 'teasers'

const options = { drafts: import.meta.env.SHOW_DRAFTS }

export async function published<C extends Editable>(collection: C): Promise<CollectionEntry<C>[]> {
  const entries = (await getCollection(collection)) as CollectionEntry<C>[]
  return entries.filter((entry) => isPublished(entry.data as { draft?: boolean }, options))
}

/** The products on sale, in catalogue order (by id). */
export async function publishedProducts(): Promise<CollectionEntry<'products'>[]> {
  return (await published('products')).sort((a, b) => a.data.id - b.data.id)
}
