import { Elysia } from 'elysia'
import { notFoundResponse, type StaticSite } from '../../plugins/static-site'
import { centsToDollars } from '../../rules/money'
import type { Services } from '../../services'

/** The tenths-of-an-ounce integer as the one-decimal text the spec shows ('2.0'). */
const ounces = (tenths: number) => (tenths / 10).toFixed(1)

export function catalogRoutes({ catalog }: Pick<Services, 'catalog'>, site: StaticSite) {
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
            rating: product.rating,
          })),
        }
      })
      // Old links used numeric ids (/product/1); the pages live at /products/{slug}.
      .get('/product/:id', async ({ params, redirect, request }) => {
        const id = /^\d{1,9}$/.test(params.id) ? Number(params.id) : Number.NaN
        const product = Number.isNaN(id) ? null : await catalog.byId(id)
        if (product) return redirect(`/products/${product.slug}`, 301)
        return notFoundResponse(site, `/products/${params.id}`, request)
      })
  )
}
