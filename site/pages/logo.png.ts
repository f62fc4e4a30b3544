// The shop's logo as a PNG, for the Organization's logo in search results (site/lib/structured-data.ts).
import type { APIRoute } from 'astro'
import { renderLogo } from '../lib/social-cards'

export const GET: APIRoute = async () =>
  new Response(await renderLogo(), { headers: { 'content-type': 'image/png' } })
