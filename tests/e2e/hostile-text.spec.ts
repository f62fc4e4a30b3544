// Text a customer typed is data, never markup: a name and an address line written as HTML are stored as
// typed and shown as those characters on the profile, in the order history, on the staff dashboard and in
// the confirmation e-mail, and no script of theirs runs anywhere (a dialog would mean one did).
import type { Page } from '@playwright/test'
import { input, signUp } from './support/accounts'
import { payWithTestCard } from './support/checkout'
import { expect, test, waitForIsland } from './support/fixtures'
import { OUTBOX, outboxMessagesFor } from './support/outbox'
import { addStaff, STAFF_PASSWORD } from './support/staff'

const FIRST_NAME = '<img src=x onerror=alert(1)>Bob'
const FULL_NAME = `${FIRST_NAME} Carpenter`
const STREET = '"><script>alert(2)</script>'

/** Every dialog any page of the test opens: alert(1) or alert(2) running is exactly what must not happen. */
const dialogs: string[] = []

function refuseDialogs(page: Page) {
  page.on('dialog', async (dialog) => {
    dialogs.push(`'${dialog.message()}' on ${page.url()}`)
    await dialog.dismiss()
  })
}

/** No dialog so far, and nothing the customer typed became an element (<img src=x>, a script, a handler). */
async function expectNoInjectedMarkup(page: Page) {
  expect(dialogs, 'typed text ran as script').toEqual([])
  const injected = await page.evaluate(() => ({
    images: document.querySelectorAll('img[src="x"]').length,
    scripts: [...document.scripts].filter((script) => script.text.includes('alert(')).length,
    handlers: document.querySelectorAll('[onerror]').length,
  }))
  expect(injected).toEqual({ images: 0, scripts: 0, handlers: 0 })
}

test.afterEach(() => {
  expect(dialogs, 'typed text ran as script').toEqual([])
})

test('hostile text is shown as typed on every page and in the e-mail, and none of it runs', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000)
  refuseDialogs(page)
  const email = `hostile.${testInfo.project.name}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`

  // Sign up with the name, then save the address line on the profile.
  await signUp(page, email, FIRST_NAME)
  await waitForIsland(page, 'AccountPage')
  const personal = page.getByRole('region', { name: 'Personal Information' })
  await expect(personal).toContainText(FIRST_NAME)

  const addressCard = page.getByRole('region', { name: 'Shipping Address' })
  await addressCard.getByRole('button', { name: 'Add shipping address' }).click()
  await input(addressCard, 'Street address').fill(STREET)
  await input(addressCard, 'City').fill('Austin')
  await input(addressCard, 'State').selectOption('TX')
  await input(addressCard, 'ZIP').fill('73301')
  await addressCard.getByRole('button', { name: 'Save' }).click()
  await expect(addressCard.getByText('Changes saved successfully!')).toBeVisible()
  await expect(addressCard.getByText(STREET, { exact: true })).toBeVisible()

  // Fresh from the server, as anyone opening the profile later sees it.
  await page.reload()
  await waitForIsland(page, 'AccountPage')
  await expect(personal).toContainText(FIRST_NAME)
  await expect(addressCard.getByText(STREET, { exact: true })).toBeVisible()
  await expectNoInjectedMarkup(page)

  // An order with the demo provider; /shipping starts from the saved name and address.
  await page.goto('/products/whisker-oil')
  await page.getByRole('button', { name: 'Add to Cart', exact: true }).click()
  await page.goto('/cart')
  await waitForIsland(page, 'CartView')
  await page.getByRole('button', { name: 'Continue to Shipping' }).click()
  await expect(page).toHaveURL(/\/shipping$/)
  await waitForIsland(page, 'ShippingCheckout')
  await expect(page.getByLabel('Full name')).toHaveValue(FULL_NAME)
  await expect(page.getByLabel('Street address')).toHaveValue(STREET)
  await expect(page.getByLabel('E-mail')).toHaveValue(email)
  await page.getByRole('button', { name: 'Get Shipping Rates' }).click()
  await page.getByRole('group', { name: 'Select Shipping Method' }).getByRole('radio').first().check()
  await page.getByRole('button', { name: 'Continue to Payment' }).click()
  const number = await payWithTestCard(page, FULL_NAME)

  // Order history, and the order's own page with its address.
  await page.goto('/account#orders')
  await waitForIsland(page, 'AccountPage')
  const history = page.getByRole('tabpanel', { name: 'Orders' })
  await expect(history.getByRole('heading', { name: `Order #${number}` })).toBeVisible()
  await expectNoInjectedMarkup(page)
  await history.getByRole('link', { name: `View details of order ${number}` }).click()
  await expect(page).toHaveURL(new RegExp(`/account/orders\\?number=${number}$`))
  const shipTo = page.getByRole('region', { name: 'Ship To' })
  await expect(shipTo.getByText(FULL_NAME, { exact: true })).toBeVisible()
  await expect(shipTo.getByText(STREET, { exact: true })).toBeVisible()
  await expectNoInjectedMarkup(page)

  // The confirmation e-mail: the text part as typed, the HTML part escaped, and shown in a browser as text.
  await expect
    .poll(() => outboxMessagesFor(email).filter((message) => message.text.includes(number)).length, {
      timeout: 20_000,
      message: `an order confirmation for ${email} in ${OUTBOX}`,
    })
    .toBeGreaterThan(0)
  const mail = outboxMessagesFor(email).find((message) => message.text.includes(number))
  expect(mail?.text).toContain(`Shipping to:\n${FULL_NAME}\n${STREET}\n`)
  expect(mail?.html).toBeTruthy()
  expect(mail?.html).not.toContain('<img src=x')
  expect(mail?.html).not.toContain('<script>')
  const reader = await page.context().newPage()
  refuseDialogs(reader)
  await reader.setContent(mail?.html ?? '')
  const shippingTo = reader.locator('h2:has-text("Shipping to") + p')
  await expect(shippingTo).toContainText(FULL_NAME)
  await expect(shippingTo).toContainText(STREET)
  await expectNoInjectedMarkup(reader)
  await reader.close()

  // The staff dashboard's orders and the order's details.
  await page.goto('/account')
  await waitForIsland(page, 'AccountPage')
  await page.getByRole('button', { name: 'Logout' }).click()
  await expect(page).toHaveURL(/\/$/)
  const staff = `staff.hostile.${testInfo.project.name}.${Date.now()}@example.com`
  addStaff(staff)
  await page.goto('/dashboard')
  await expect(page).toHaveURL(/\/login\?next=%2Fdashboard$/)
  await waitForIsland(page, 'LoginForm')
  await input(page, 'Email').fill(staff)
  await input(page, 'Password').fill(STAFF_PASSWORD)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
  await waitForIsland(page, 'DashboardPage')
  const row = page.locator(`tr[data-order="${number}"]`)
  await expect(row.getByText(FULL_NAME, { exact: true })).toBeVisible({ timeout: 20_000 })
  await row.getByRole('button', { name: `#${number} details` }).click()
  const details = page.getByRole('dialog', { name: `Order #${number}` })
  await expect(details.getByText(FULL_NAME, { exact: true }).first()).toBeVisible()
  await expect(details.getByText(STREET, { exact: true }).first()).toBeVisible()
  await expectNoInjectedMarkup(page)
})
