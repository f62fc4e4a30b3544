// robots.txt, naming the sitemap on the origin the site is built for (PUBLIC_URL; core/rules/indexing.ts).

import { robotsTxt } from '@core/rules/indexing'
import type { APIRoute } from 'astro'

export const GET: APIRoute = ({ site }) => {
  if (!site)
    throw new Error('astro.config.mjs must set site (from PUBLIC_URL) for robots.txt to name the sitemap')
  return new Response(robotsTxt(site), { headers: { 'content-type': 'text/plain; charset=utf-8' } })
}
