// The shop opened at http://127.0.0.1:<port> instead of PUBLIC_URL (http://localhost:<port>, see
// playwright.config.ts), as someone does who types the address the server printed, or opens the machine's
// LAN address on a phone: every form works there, and signing in with a crafted `next` never leaves it.
import type { Page } from '@playwright/test'
import { input, PASSWORD, signUp } from './support/accounts'
import { payWithTestCard } from './support/checkout'
import { expect, test, waitForIsland } from './support/fixtures'

const port = Number(process.env.E2E_PORT ?? 4599)
const AT_ADDRESS = `http://127.0.0.1:${port}`

test.use({ baseURL: AT_ADDRESS })
// Sign-up, sign-in and the pages between them: more than 30 s on a busy machine.
test.beforeEach(() => test.setTimeout(120_000))

function uniqueEmail(label: string): string {
  return `address.${label}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`
}

/** Every answer to a state-changing call the page makes, so a refusal cannot hide behind a toast. */
function recordWrites(page: Page): { url: string; status: number }[] {
  const writes: { url: string; status: number }[] = []
  page.on('response', (response) => {
    if (response.request().method() !== 'GET') writes.push({ url: response.url(), status: response.status() })
  })
  return writes
}

test('sign up, sign out and sign in at the IP address; a crafted next= stays on the shop', async ({
  page,
}, testInfo) => {
  const writes = recordWrites(page)
  const email = uniqueEmail(testInfo.project.name)
  await signUp(page, email)
  await expect(page).toHaveURL(`${AT_ADDRESS}/profile`)
  await page.getByRole('button', { name: 'Logout' }).click()
  await expect(page).toHaveURL(`${AT_ADDRESS}/`)

  // The sign-in link from a phishing mail: /.//evil.example/phish is //evil.example/phish once normalised.
  await page.goto('/login?next=%2F.%2F%2Fevil.example%2Fphish')
  await waitForIsland(page, 'LoginForm')
  await input(page, 'Email').fill(email)
  await input(page, 'Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
  await expect(page).toHaveURL(`${AT_ADDRESS}/account`)
  await expect(page.getByRole('heading', { level: 1, name: 'My Account' })).toBeVisible()

  expect(writes.length).toBeGreaterThanOrEqual(3)
  expect(writes.filter((write) => write.status === 403)).toEqual([])
})

test('the newsletter, the shipping rates, checkout and the demo payment work at the IP address', async ({
  page,
}, testInfo) => {
  const writes = recordWrites(page)
  await page.goto('/')
  const crew = page.getByRole('region', { name: 'Join The Crew' })
  // The form's island hydrates once it is on screen.
  await crew.scrollIntoViewIfNeeded()
  await waitForIsland(page, 'NewsletterSignup')
  await crew
    .getByRole('textbox', { name: 'Email address' })
    .fill(uniqueEmail(`crew.${testInfo.project.name}`))
  await crew.getByRole('button', { name: 'Subscribe' }).click()
  await expect(page.getByRole('dialog', { name: 'Welcome to the Crew' })).toBeVisible()
  await page.keyboard.press('Escape')

  await page.goto('/products/whisker-oil')
  await page.getByRole('button', { name: 'Add to Cart', exact: true }).click()
  await page.goto('/shipping')
  await waitForIsland(page, 'ShippingCheckout')
  await page.getByLabel('Full name').fill('Sam Carpenter')
  await page.getByLabel('Street address').fill('12 Workshop Lane')
  await page.getByLabel('City').fill('Austin')
  await page.getByLabel('State').selectOption('TX')
  await page.getByLabel('ZIP').fill('73301')
  await page.getByLabel('E-mail').fill(uniqueEmail(`buyer.${testInfo.project.name}`))
  await page.getByRole('button', { name: 'Get Shipping Rates' }).click()
  const methods = page.getByRole('group', { name: 'Select Shipping Method' })
  await methods.getByRole('radio').first().check()
  await page.getByRole('button', { name: 'Continue to Payment' }).click()
  const orderNumber = await payWithTestCard(page, 'Sam Carpenter')
  expect(orderNumber).toMatch(/^\d{6}$/)
  expect(new URL(page.url()).origin).toBe(AT_ADDRESS)

  expect(writes.filter((write) => write.status === 403)).toEqual([])
})

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false })

  test("the footer's plain form post signs up at the IP address", async ({ page }, testInfo) => {
    await page.goto('/about')
    const footer = page.getByRole('contentinfo')
    await footer
      .getByRole('textbox', { name: 'Join the newsletter' })
      .fill(uniqueEmail(`footer.${testInfo.project.name}`))
    await footer.getByRole('button', { name: 'Subscribe' }).click()
    await expect(page).toHaveURL(`${AT_ADDRESS}/newsletter/subscribed`)
  })
})
