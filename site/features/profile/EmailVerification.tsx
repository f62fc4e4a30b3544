import { useState } from 'react'
import { resendVerification } from '../account/api'
import { resendFailedText } from '../account/verification'
import type { PublicUser } from './api'
import { SectionCard } from './SectionCard'

type Sending =
  | { kind: 'idle' }
  | { kind: 'busy' }
  | { kind: 'sent'; text: string }
  | { kind: 'error'; text: string }

/**
 * 'E-mail Address': whether the address is proved ("Verified" or "Not verified yet") and, until it is,
 * 'Send the link again'. The outcome stays on screen (it is not a passing toast): the customer goes to
 * their inbox and comes back to it.
 */
export function EmailVerification({
  user,
  onSaved,
}: {
  user: PublicUser
  onSaved: (user: PublicUser) => void
}) {
  const [sending, setSending] = useState<Sending>({ kind: 'idle' })

  async function resend() {
    if (sending.kind === 'busy') return
    setSending({ kind: 'busy' })
    try {
      const answer = await resendVerification()
      if (answer.emailVerified) onSaved({ ...user, emailVerified: true })
      setSending({ kind: 'sent', text: answer.message })
    } catch (error) {
      setSending({ kind: 'error', text: resendFailedText(error) })
    }
  }

  const busy = sending.kind === 'busy'
  return (
    <SectionCard id="email-verification" title="E-mail Address">
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="font-semibold [overflow-wrap:anywhere]">{user.email}</span>
        <span
          id="email-verification-state"
          className={`rounded-full border px-2 py-0.5 text-sm font-semibold ${
            user.emailVerified ? 'border-success text-success' : 'border-muted text-muted'
          }`}
        >
          {user.emailVerified ? 'Verified' : 'Not verified yet'}
        </span>
      </p>
      {!user.emailVerified && (
        <>
          <p className="mt-2 text-sm text-muted">
            We e-mailed you a link when you signed up. It works for 24 hours; a new one replaces it.
          </p>
          <button
            type="button"
            className="btn-outline mt-3"
            onClick={resend}
            disabled={busy}
            aria-busy={busy}
            aria-describedby="email-verification-state"
          >
            {busy ? 'Sending...' : 'Send the link again'}
          </button>
        </>
      )}
      {/* Always in the DOM, so screen readers announce what appears in it. */}
      <p
        role="status"
        className={`mt-3 min-h-6 text-sm font-semibold ${sending.kind === 'error' ? 'text-danger' : 'text-success'}`}
      >
        {sending.kind === 'sent' || sending.kind === 'error' ? sending.text : ''}
      </p>
    </SectionCard>
  )
}
