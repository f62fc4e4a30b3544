// The whole 'Join the Crew' path of a <NewsletterSignup> on any page, for that page's own test:
//
//   await expectCrewSignup(page, page.getByRole('region', { name: 'Join The Crew' }), 'home')
//
// A value without '@' stays on the form with a message and no dialog; a real address is POSTed with the
// form's source, the field clears and the 'Welcome to the Crew' dialog shows the CREW10 code; Escape closes
// it and focus goes back to the button. Each call makes one real sign-up, and the server allows 10 per hour
// from one address (all browser tests share it), so use it once per page, not in a loop.
import type { Locator, Page } from '@playwright/test'
import type { NewsletterSource } from '../../../site/features/newsletter/api'
import { expect } from './fixtures'

export interface CrewSignupOptions {
  /** Accessible name of the e-mail field (default: 'Email address'). */
  inputName?: string | RegExp
  /** Accessible name of the submit button (default: 'Subscribe'). */
  buttonName?: string | RegExp
  email?: string
}

export async function expectCrewSignup(
  page: Page,
  form: Locator,
  source: NewsletterSource,
  options: CrewSignupOptions = {},
): Promise<void> {
  const input = form.getByRole('textbox', { name: options.inputName ?? 'Email address' })
  const submit = form.getByRole('button', { name: options.buttonName ?? 'Subscribe' })
  const dialog = page.getByRole('dialog', { name: 'Welcome to the Crew' })
  const email = options.email ?? `crew-${source}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`

  let posted = 0
  page.on('request', (request) => {
    if (request.url().endsWith('/api/newsletter')) posted += 1
  })

  await input.fill('crew.example.com')
  await submit.click()
  await expect(form.getByRole('alert')).toContainText('@')
  await expect(input).toHaveAttribute('aria-invalid', 'true')
  await expect(dialog).toBeHidden()
  expect(posted).toBe(0)

  const request = page.waitForRequest('**/api/newsletter')
  await input.fill(email)
  await submit.click()
  expect((await request).postDataJSON()).toEqual({ email, source })
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('10% off your first order')
  await expect(dialog).toContainText('CREW10')
  await expect(input).toHaveValue('')
  await expect(input).not.toHaveAttribute('aria-invalid', 'true')

  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(submit).toBeFocused()
}
