/** The brand as the site presents it to people and to search engines (footer, structured data, cards). */

export const SHOP_NAME = 'Grit & Whisker'

export const SHOP_TAGLINE = 'Natural beard, hand and body care built for people who work with their hands.'

/** The shop's profiles elsewhere: the footer's icons (with their drawing) and Organization.sameAs. */
export const SOCIAL_PROFILES = [
  {
    name: 'Instagram',
    href: 'https://www.instagram.com/gritandwhisker',
    path: 'M7 3h10a4 4 0 0 1 4 4v10a4 4 0 0 1-4 4H7a4 4 0 0 1-4-4V7a4 4 0 0 1 4-4zm5 5a4 4 0 1 0 0 8 4 4 0 0 0 0-8zm5.5-1.5h.01',
  },
  {
    name: 'Facebook',
    href: 'https://www.facebook.com/gritandwhisker',
    path: 'M15 3h-2.5A3.5 3.5 0 0 0 9 6.5V9H6.5v3.5H9V21h3.5v-8.5H15l.5-3.5h-3V7a1 1 0 0 1 1-1H15z',
  },
  {
    name: 'YouTube',
    href: 'https://www.youtube.com/@gritandwhisker',
    path: 'M21 8.2a3 3 0 0 0-2.1-2.1C17 5.6 12 5.6 12 5.6s-5 0-6.9.5A3 3 0 0 0 3 8.2 31 31 0 0 0 2.6 12c0 1.3.1 2.5.4 3.8a3 3 0 0 0 2.1 2.1c1.9.5 6.9.5 6.9.5s5 0 6.9-.5a3 3 0 0 0 2.1-2.1c.3-1.3.4-2.5.4-3.8s-.1-2.5-.4-3.8zM10 15V9l5.2 3z',
  },
] as const
