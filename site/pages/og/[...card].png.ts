// The social card of each indexable page (site/lib/social-cards.ts), written to dist/og/ at build time.

import { cardPath } from '@core/rules/indexing'
import type { APIRoute, GetStaticPaths } from 'astro'
import { renderCard, type SocialCard, socialCards } from '../../lib/social-cards'

export const getStaticPaths = (() =>
  socialCards({ drafts: import.meta.env.SHOW_DRAFTS }).map((card) => ({
    params: {
      card: cardPath(card.path)
        .replace(/^\/og\//, '')
        .replace(/\.png$/, ''),
    },
    props: { card },
  }))) satisfies GetStaticPaths

export const GET: APIRoute<{ card: SocialCard }> = async ({ props }) =>
  new Response(await renderCard(props.card), { headers: { 'content-type': 'image/png' } })
