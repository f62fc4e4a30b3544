import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { notFoundResponse } from '../../plugins/static-site'
import { centsToDollars } from '../../rules/money'
import { loadCatalogFromContent, PRODUCT_CONTENT_DIR } from './content'
import { createCatalogService } from './service'

/** The tenths-of-an-ounce integer as the one-decimal text the spec shows ('2.0'). */
const ounces = (tenths: number) => (tenths / 10).toFixed(1)

export function catalogRoutes(deps: AppDeps) {
  const catalog = createCatalogService(deps.db)
  // Ratings are shop-window text, not money: they come from the content the pages were built from.
  const ratings = new Map(
    loadCatalogFromContent(PRODUCT_CONTENT_DIR).map((product) => [product.id, product.rating]),
  )
  return (
    new Elysia()
      // The shop's live prices: pages are prerendered, so this is how a page learns of a change since its build.
      .get('/api/catalog', async ({ set }) => {
        set.headers['cache-control'] = 'public, max-age=60'
        const products = await catalog.list()
        return {
          products: products.map((product) => ({
            id: product.id,
            slug: product.slug,
            name: product.name,
            category: product.category,
            description: product.description,
            price: centsToDollars(product.priceCents),
            weight: ounces(product.weightTenthsOz),
            rating: ratings.get(product.id) ?? null,
          })),
        }
      })
      // Old links used numeric ids (/product/1); the pages live at /products/{slug}.
      .get('/product/:id', async ({ params, redirect, request }) => {
        const id = /^\d{1,9}$/.test(params.id) ? Number(params.id) : Number.NaN
        const product = Number.isNaN(id) ? null : await catalog.byId(id)
        if (product) return redirect(`/products/${product.slug}`, 301)
        return notFoundResponse(deps.site, `/products/${params.id}`, request)
      })
  )
}
