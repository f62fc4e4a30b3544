/**
 * A local OpenID provider standing in for Google (oauth2-mock-server): the shop's real Google sign-in code
 * talks to it over HTTP, and each ID token it signs carries the claims the test sets for the next one.
 */
import { OAuth2Server } from 'oauth2-mock-server'

/** Starts the provider; `claims` is asked for every ID token it signs. */
export async function startGoogleProvider(claims: () => Record<string, unknown>): Promise<OAuth2Server> {
  const provider = new OAuth2Server()
  await provider.issuer.keys.generate('RS256')
  await provider.start(0, 'localhost')
  provider.service.on('beforeTokenSigning', (token) => {
    Object.assign(token.payload, claims())
  })
  return provider
}

/** The shop's configuration for signing in with it. */
export function googleEnv(
  provider: OAuth2Server,
  clientId = 'grit-and-whisker-test',
): Record<string, string> {
  return {
    GOOGLE_CLIENT_ID: clientId,
    GOOGLE_CLIENT_SECRET: 'test-secret',
    GOOGLE_ISSUER: provider.issuer.url ?? '',
  }
}
