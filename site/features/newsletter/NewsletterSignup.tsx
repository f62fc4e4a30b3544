import { type FormEvent, useId, useRef, useState } from 'react'
import { CREW_DISCOUNT_CODE, looksLikeEmail, type NewsletterSource, subscribe } from './api'

export interface NewsletterSignupProps {
  /** Which form the sign-up came from; stored with the address. */
  source: NewsletterSource
  /** Visible label of the e-mail field. */
  label?: string
  /** Hide the label visually when the surrounding section already says what the field is for. */
  hideLabel?: boolean
  placeholder?: string
  buttonLabel?: string
  className?: string
}

/**
 * An e-mail sign-up that stores the address and then opens the 'Welcome to the Crew' dialog with the
 * first-order code. A value without '@' stays on the form with a message next to the field.
 *
 * Until this island has hydrated (or with JavaScript off) the browser posts the form itself and the server
 * answers with a page saying what happened (docs/decisions/009-forms-before-hydration.md), so the markup is a complete POST form.
 */
export default function NewsletterSignup({
  source,
  label = 'Email address',
  hideLabel = false,
  placeholder = 'Enter your email',
  buttonLabel = 'Subscribe',
  className = '',
}: NewsletterSignupProps) {
  const id = useId()
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const inputRef = useRef<HTMLInputElement>(null)
  const dialogRef = useRef<HTMLDialogElement>(null)
  const returnFocus = useRef<HTMLElement | null>(null)

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = event.currentTarget
    // Read the field, not React state: the visitor may have typed before the island hydrated.
    const value = (inputRef.current?.value ?? '').trim()
    if (!looksLikeEmail(value)) {
      setError('Please enter a valid email address, including an @.')
      inputRef.current?.focus()
      return
    }
    setError('')
    // Remember who opened the dialog now: the button is disabled while the request runs and loses focus.
    returnFocus.current =
      event.nativeEvent instanceof SubmitEvent && event.nativeEvent.submitter instanceof HTMLElement
        ? event.nativeEvent.submitter
        : inputRef.current
    setBusy(true)
    const result = await subscribe(value, source)
    setBusy(false)
    if (!result.ok) {
      setError(result.error)
      inputRef.current?.focus()
      return
    }
    form.reset()
    dialogRef.current?.showModal()
  }

  function closeDialog() {
    dialogRef.current?.close()
  }

  return (
    <div className={className}>
      <form className="newsletter-form" method="post" action="/api/newsletter" noValidate onSubmit={onSubmit}>
        <input type="hidden" name="source" value={source} />
        <label htmlFor={`${id}-email`} className={hideLabel ? 'sr-only' : 'newsletter-label'}>
          {label}
        </label>
        <div className="newsletter-row">
          <input
            ref={inputRef}
            id={`${id}-email`}
            className="field"
            type="email"
            name="email"
            autoComplete="email"
            placeholder={placeholder}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
          />
          <button type="submit" className="btn-primary" disabled={busy}>
            {busy ? 'Joining...' : buttonLabel}
          </button>
        </div>
        <p id={`${id}-error`} className="newsletter-error" role="alert">
          {error}
        </p>
      </form>

      {/* biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop is a mouse shortcut; Escape and the Close button cover the keyboard */}
      <dialog
        ref={dialogRef}
        className="crew-dialog"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-body`}
        onClose={() => returnFocus.current?.focus()}
        onClick={(event) => {
          // A click on the backdrop lands on the dialog element itself.
          if (event.target === event.currentTarget) closeDialog()
        }}
      >
        <div className="crew-dialog-body">
          <h2 id={`${id}-title`} className="crew-dialog-title">
            Welcome to the Crew
          </h2>
          <p id={`${id}-body`}>
            You&rsquo;re on the list. Take 10% off your first order with this code at checkout:
          </p>
          <p className="crew-code">{CREW_DISCOUNT_CODE}</p>
          <button type="button" className="btn-primary w-full" onClick={closeDialog}>
            Close
          </button>
        </div>
      </dialog>
    </div>
  )
}
