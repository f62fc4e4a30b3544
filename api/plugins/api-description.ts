import { openapi } from '@elysiajs/openapi'
import packageJson from '../../package.json'

export const API_DESCRIPTION_PATH = '/api/openapi.json'

/**
 * The API described as OpenAPI 3, written from the routes' own schemas (`t`), so it cannot drift from what
 * the server checks. Only the JSON document is served: no documentation page, which would load scripts
 * from a CDN the shop's CSP does not allow. The static site's catch-all is left out; it stands for pages.
 */
export function apiDescription() {
  return openapi({
    provider: null,
    specPath: API_DESCRIPTION_PATH,
    // Every API route is described, the CSV export (`/api/orders/export.csv`) too: the plugin would
    // otherwise take any path with a dot for a static file and leave it out.
    exclude: { paths: ['/*', API_DESCRIPTION_PATH], staticFile: false },
    documentation: {
      info: {
        title: 'Grit & Whisker shop API',
        version: packageJson.version,
        description:
          'The online shop for beard and hand care: catalogue, cart pricing, shipping rates, checkout, ' +
          'accounts and the staff dashboard. Errors are JSON `{ "error": "…" }`; invalid input is a 422 ' +
          '(docs/decisions/015). State-changing calls are taken only from the shop’s own origin.',
      },
      tags: [
        { name: 'Shop', description: 'Catalogue, newsletter, discounts and shipping rates' },
        { name: 'Checkout', description: 'Checkout sessions and the demo payment provider' },
        { name: 'Account', description: 'Sign-up, sign-in, password reset and the customer’s own data' },
        { name: 'Staff', description: 'The staff dashboard: staff accounts only' },
        { name: 'Operations', description: 'Health checks and payment webhooks' },
      ],
    },
  })
}
