import { useEffect, useRef, useState } from 'react'
import { verifyEmail } from './api'
import { NeedsScriptNote } from './NeedsScriptNote'
import { PENDING_TOKEN_KEY, type VerifyOutcome, verificationToken, verifyOutcome } from './verification'

type Phase = { kind: 'checking' } | VerifyOutcome

const TEXT: Record<Exclude<Phase['kind'], 'checking' | 'failed'>, { title: string; body: string }> = {
  verified: { title: 'E-mail Verified', body: 'Thank you: your e-mail address is confirmed.' },
  used: {
    title: 'Already Verified',
    body: 'This link has been used already, so your e-mail address is confirmed.',
  },
  expired: {
    title: 'Link Expired',
    body: 'Verification links work once, for 24 hours. Sign in and send a new one from your account page.',
  },
  invalid: {
    title: 'Invalid Link',
    body: 'This verification link is not valid. Sign in and send a new one from your account page.',
  },
  signIn: {
    title: 'Sign In to Confirm',
    body: 'Sign in to the account you made with this e-mail address, and we will confirm it (or open the link again once signed in). If you did not make an account here, ignore the e-mail: nothing is confirmed.',
  },
  otherAccount: {
    title: 'Another Account',
    body: 'This link was sent for another account. Sign out, then sign in to the account you made with this e-mail address and open the link again.',
  },
}

/**
 * Sign in and come back here (/login?next=…, as sign-in-guard.ts builds it; written out so this page
 * does not split the header's session hint into a chunk of its own on every page).
 */
const SIGN_IN_AND_RETURN = '/login?next=%2Fverify-email'

/**
 * Kept in the tab while its visitor signs in, and dropped once the link was answered. A browser that
 * refuses storage (some private modes) keeps nothing: the link opened again after signing in still works.
 */
const pending = {
  read: () => stored(() => sessionStorage.getItem(PENDING_TOKEN_KEY)) ?? '',
  keep: (token: string) => stored(() => sessionStorage.setItem(PENDING_TOKEN_KEY, token)),
  drop: () => stored(() => sessionStorage.removeItem(PENDING_TOKEN_KEY)),
}

function stored<T>(use: () => T): T | undefined {
  try {
    return use()
  } catch {
    return undefined
  }
}

/**
 * Sends the token and shows what the answer means. Signed out, the token waits in the tab for the
 * visitor to sign in and come back; any other answer settles it.
 */
function confirmAddress(token: string, show: (phase: Phase) => void) {
  show({ kind: 'checking' })
  verifyEmail(token).then(
    () => {
      pending.drop()
      show({ kind: 'verified' })
    },
    (error) => {
      const outcome = verifyOutcome(error)
      if (outcome.kind === 'signIn') pending.keep(token)
      else if (outcome.kind !== 'failed') pending.drop()
      show(outcome)
    },
  )
}

/**
 * /verify-email?token=… (the link e-mailed at sign-up): reads the token, takes it out of the address bar,
 * and proves the address at once, signed in as the account it was sent for (docs/decisions/016); signed
 * out, it asks to sign in and comes back here to finish. The page sends no referrer (its head and the
 * server say so) and loads nothing from anyone else, so the token goes nowhere but the shop's own verify
 * call.
 */
export default function VerifyEmail() {
  const [phase, setPhase] = useState<Phase>({ kind: 'checking' })
  const token = useRef('')
  const heading = useRef<HTMLHeadingElement>(null)

  useEffect(() => {
    token.current = verificationToken(window.location.search) || pending.read()
    // The token is a credential: once read, it leaves the address bar and the history.
    window.history.replaceState(null, '', window.location.pathname)
    if (!token.current) return setPhase({ kind: 'invalid' })
    confirmAddress(token.current, setPhase)
  }, [])

  useEffect(() => {
    if (phase.kind !== 'checking') heading.current?.focus()
  }, [phase])

  if (phase.kind === 'checking') {
    return (
      <div className="mx-auto grid w-full max-w-md justify-items-center gap-4 py-8 text-center">
        <h1 className="sr-only">Verify E-mail</h1>
        <div className="spinner" aria-hidden="true" />
        <p role="status">Confirming your e-mail address...</p>
        <NeedsScriptNote action="confirm your e-mail address" />
      </div>
    )
  }

  const failed = phase.kind === 'failed'
  const { title, body } = failed ? { title: 'Could Not Verify', body: phase.message } : TEXT[phase.kind]
  return (
    <div className="mx-auto w-full max-w-md rounded-lg border border-line bg-surface p-4 sm:p-6">
      <h1 ref={heading} tabIndex={-1} className="font-display text-3xl font-bold uppercase">
        {title}
      </h1>
      <p className="mt-3" role={failed ? 'alert' : undefined}>
        {body}
      </p>
      {failed ? (
        <button
          type="button"
          className="btn-primary mt-6 w-full"
          onClick={() => confirmAddress(token.current, setPhase)}
        >
          Try Again
        </button>
      ) : phase.kind === 'signIn' ? (
        <a href={SIGN_IN_AND_RETURN} className="btn-primary mt-6 w-full">
          Sign In
        </a>
      ) : (
        <a href="/profile" className="btn-primary mt-6 w-full">
          Go to My Account
        </a>
      )}
    </div>
  )
}
