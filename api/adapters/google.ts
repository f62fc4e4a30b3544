/**
 * Google sign-in over OpenID Connect (`openid-client`): authorization code flow with PKCE, state and nonce.
 * The issuer is configurable, so a local OpenID provider stands in for Google in tests and development.
 */
import * as oidc from 'openid-client'
import { type IdentityProvider, IdentityProviderError, type VerifiedIdentity } from './types'

export interface GoogleOptions {
  clientId: string
  clientSecret: string
  /** https://accounts.google.com, or a local provider's URL. */
  issuer: string
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null
}

export function createGoogleSignIn(options: GoogleOptions): IdentityProvider {
  const issuer = new URL(options.issuer)
  let discovered: Promise<oidc.Configuration> | null = null

  /** Discovery runs once, on first use, so the server starts even while Google is unreachable. */
  function configuration(): Promise<oidc.Configuration> {
    discovered ??= oidc
      .discovery(issuer, options.clientId, options.clientSecret, undefined, {
        timeout: 10,
        // Only a local stand-in provider is ever plain http (production refuses it at boot).
        ...(issuer.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {}),
      })
      .catch((error: unknown) => {
        discovered = null
        throw new IdentityProviderError(`OpenID discovery at ${issuer.origin} failed: ${reasonOf(error)}`)
      })
    return discovered
  }

  return {
    name: 'google',

    async start(redirectUri) {
      const config = await configuration()
      const codeVerifier = oidc.randomPKCECodeVerifier()
      const state = oidc.randomState()
      const nonce = oidc.randomNonce()
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
        prompt: 'select_account',
      })
      return { url: url.href, checks: { state, nonce, codeVerifier } }
    },

    async finish(callbackUrl, checks): Promise<VerifiedIdentity> {
      const config = await configuration()
      let claims: oidc.IDToken | undefined
      try {
        // Checks the state, exchanges the code with the PKCE verifier, and verifies the ID token's signature,
        // issuer, audience, expiry and nonce.
        const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: checks.codeVerifier,
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          idTokenExpected: true,
        })
        claims = tokens.claims()
      } catch (error) {
        throw new IdentityProviderError(`sign-in was not completed: ${reasonOf(error)}`)
      }
      const email = text(claims?.email)?.toLowerCase()
      if (!claims || !email) throw new IdentityProviderError('the ID token carries no e-mail address')
      return {
        subject: claims.sub,
        email,
        // Google sends a boolean; some providers send the string 'true'.
        emailVerified: claims.email_verified === true || claims.email_verified === 'true',
        givenName: text(claims.given_name),
        familyName: text(claims.family_name),
        picture: text(claims.picture),
      }
    },
  }
}

/** The error's class and message, never a token or a response body. */
function reasonOf(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 200)
  return 'unknown error'
}
