// robots.txt, naming the sitemap on the origin the site is built for (PUBLIC_URL; site/lib/indexing.ts).
import type { APIRoute } from 'astro'
import { robotsTxt } from '../lib/indexing'

export const GET: APIRoute = ({ site }) => {
  if (!site)
    throw new Error('astro.config.mjs must set site (from PUBLIC_URL) for robots.txt to name the sitemap')
  return new Response(robotsTxt(site), { headers: { 'content-type': 'text/plain; charset=utf-8' } })
}
