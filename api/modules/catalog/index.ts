import { Elysia } from 'elysia'
import { notFoundResponse, respond, type StaticSite } from '../../plugins/static-site'
import type { StockService } from '../stock/service'
import type { CatalogService } from './service'

export function catalogRoutes(
  { catalog, stock }: { catalog: CatalogService; stock: Pick<StockService, 'snapshot'> },
  site: StaticSite,
) {
  return (
    new Elysia()
      // The shop's live prices: pages are prerendered, so this is how a page learns of a change since its build.
      // The answer is built once per catalogue change and stock figures (read at most once a second) and
      // kept ready, compressed, with an ETag.
      .get(
        '/api/catalog',
        async ({ request }) => respond(await catalog.listing(await stock.snapshot()), request),
        {
          detail: { summary: 'Live prices and stock of the catalogue', tags: ['Shop'] },
        },
      )
      // Old links used numeric ids (/product/1); the pages live at /products/{slug}.
      .get(
        '/product/:id',
        async ({ params, redirect, request }) => {
          const id = /^\d{1,9}$/.test(params.id) ? Number(params.id) : Number.NaN
          const product = Number.isNaN(id) ? null : await catalog.byId(id)
          if (product) return redirect(`/products/${product.slug}`, 301)
          return notFoundResponse(site, `/products/${params.id}`, request)
        },
        { detail: { summary: 'Old numeric product link: a 301 to /products/{slug}', tags: ['Shop'] } },
      )
  )
}
