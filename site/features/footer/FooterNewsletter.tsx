import { type FormEvent, useState } from 'react'
import { subscribe } from '../newsletter/api'
import { showToast } from '../toasts/store'

/**
 * The footer sign-up. The spec's alert 'Subscribed with email: …' confirms it (DESIGN §6.8: the address is
 * now stored too); a refusal from the server is shown as an error toast and the address stays in the field.
 */
export default function FooterNewsletter() {
  const [email, setEmail] = useState('')
  const [busy, setBusy] = useState(false)

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const value = email.trim()
    setBusy(true)
    const result = await subscribe(value, 'footer')
    setBusy(false)
    if (result.ok) {
      window.alert(`Subscribed with email: ${value}`)
      setEmail('')
    } else {
      showToast({ title: 'Could not subscribe', description: result.error, variant: 'error' })
    }
  }

  return (
    <form className="footer-newsletter" onSubmit={onSubmit}>
      <label htmlFor="footer-newsletter-email" className="footer-heading">
        Join the newsletter
      </label>
      <p id="footer-newsletter-note" className="footer-note">
        Workshop tips, new products and crew-only offers. No spam.
      </p>
      <div className="newsletter-row">
        <input
          id="footer-newsletter-email"
          className="field"
          type="email"
          name="email"
          required
          autoComplete="email"
          placeholder="Your email"
          aria-describedby="footer-newsletter-note"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? 'Joining...' : 'Subscribe'}
        </button>
      </div>
    </form>
  )
}
