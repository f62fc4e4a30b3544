/**
 * The footer sign-up in place (markup in FooterNewsletter.astro). The alert 'Subscribed with email: …'
 * confirms it and clears the field (docs/product.md#every-page: the address is now stored too); a refusal from the server is
 * shown as an error toast and the address stays in the field.
 */
import { subscribe } from '../newsletter/api'
import { showToast } from '../toasts/store'

const form = document.querySelector<HTMLFormElement>('[data-footer-newsletter]')
const button = form?.querySelector('button')

if (form && button) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    // Read the field as it is now: the visitor may have typed before this script ran.
    const email = String(new FormData(form).get('email')).trim()
    button.disabled = true
    button.textContent = 'Joining...'
    const result = await subscribe(email, 'footer')
    button.disabled = false
    button.textContent = 'Subscribe'
    if (result.ok) {
      window.alert(`Subscribed with email: ${email}`)
      form.reset()
    } else {
      showToast({ title: 'Could not subscribe', description: result.error, variant: 'error' })
    }
  })
  // Tells tests (and anyone reading the DOM) that sign-ups now happen in place.
  form.dataset.ready = ''
}
