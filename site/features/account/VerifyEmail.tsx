import { useEffect, useRef, useState } from 'react'
import { verifyEmail } from './api'
import { NeedsScriptNote } from './NeedsScriptNote'
import { type VerifyOutcome, verificationToken, verifyOutcome } from './verification'

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
}

/** Sends the token and shows what the answer means. */
function confirmAddress(token: string, show: (phase: Phase) => void) {
  show({ kind: 'checking' })
  verifyEmail(token).then(
    () => show({ kind: 'verified' }),
    (error) => show(verifyOutcome(error)),
  )
}

/**
 * /verify-email?token=… (the link e-mailed at sign-up): reads the token, takes it out of the address bar,
 * and proves the address at once. The page sends no referrer (its head and the server say so) and loads
 * nothing from anyone else, so the token goes nowhere but the shop's own verify call.
 */
export default function VerifyEmail() {
  const [phase, setPhase] = useState<Phase>({ kind: 'checking' })
  const token = useRef('')
  const heading = useRef<HTMLHeadingElement>(null)

  useEffect(() => {
    token.current = verificationToken(window.location.search)
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
      ) : (
        <a href="/profile" className="btn-primary mt-6 w-full">
          Go to My Account
        </a>
      )}
    </div>
  )
}
