/**
 * A local OpenID provider standing in for Google in the browser tests (oauth2-mock-server): discovery,
 * authorize (answers at once, no login screen), token with PKCE, and signed ID tokens.
 *
 * Who signs in is chosen by the test with a `fake_google_email` cookie: cookies are per host, not per port,
 * so the browser sends the one it holds for the shop to this provider on localhost too. The ID token then
 * carries that address as a verified e-mail.
 *
 *   OPENID_PORT=4600 bun tests/fakes/openid-provider.ts
 */
import type { IncomingMessage } from 'node:http'
import { OAuth2Server } from 'oauth2-mock-server'

const port = Number(process.env.OPENID_PORT ?? 4600)
const EMAIL_COOKIE = 'fake_google_email'

function chosenEmail(request: IncomingMessage): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=')
    if (name === EMAIL_COOKIE) return decodeURIComponent(value.join('='))
  }
  return null
}

const server = new OAuth2Server()
await server.issuer.keys.generate('RS256')

/** Authorization code → the e-mail the browser chose when it asked for that code. */
const emailForCode = new Map<string, string>()

server.service.on('beforeAuthorizeRedirect', (redirect, request: IncomingMessage) => {
  const code = redirect.url.searchParams.get('code')
  const email = chosenEmail(request)
  if (code && email) emailForCode.set(code, email)
})

server.service.on('beforeTokenSigning', (token, request) => {
  const code = (request.body as { code?: unknown } | undefined)?.code
  const email = typeof code === 'string' ? emailForCode.get(code) : undefined
  if (!email) return
  Object.assign(token.payload, {
    sub: `google-${email}`,
    email,
    email_verified: true,
    given_name: 'Gail',
    family_name: 'Grover',
  })
})

// No host: listen on every interface, so 'localhost' works whether it resolves to ::1 or 127.0.0.1.
await server.start(port)
console.log(`OpenID provider for tests at ${server.issuer.url}`)
