import { t } from 'elysia'

export const NEWSLETTER_SOURCES = ['footer', 'home', 'shop', 'supply-drop', 'popup'] as const

export const subscribeBody = t.Object({
  email: t.String({ maxLength: 254, error: 'Please enter your e-mail address.' }),
  source: t.Optional(t.UnionEnum(NEWSLETTER_SOURCES, { error: 'Unknown sign-up form.' })),
})

export type SubscribeBody = typeof subscribeBody.static
