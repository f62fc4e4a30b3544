// Customer accounts from the shopper's side: sign up → sign out → sign in → profile edits → a purchase while
// signed in → the order in the history and on its own page → a password reset by e-mail that signs out the
// old sessions → sign in with the new password. Then the rules around it: the signed-in pages turn
// anonymous visitors away before they paint, every account form is harmless before hydration and with
// JavaScript off, and axe finds nothing on any account page.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Locator, Page, Route } from '@playwright/test'
import { input, PASSWORD, register } from './support/accounts'
import { payWithTestCard } from './support/checkout'
import { expect, slowRenders, suppressWelcomePopup, test, waitForIsland } from './support/fixtures'

// playwright.config.ts starts the server with DATA_DIR=./data/e2e; the outbox mailer writes
// `${DATA_DIR}/outbox/*.json` (api/adapters/outbox.ts).
const OUTBOX = join(process.cwd(), 'data', 'e2e', 'outbox')
const NEW_PASSWORD = 'new-leather-apron'

function uniqueEmail(project: string, name = 'sam'): string {
  return `${name}.${project}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`
}

/** The toast region shows one toast at a time; its text is what the shopper reads. */
function toast(page: Page, title: string, description?: string | RegExp): Locator {
  const item = page.locator('.toast-list li', { hasText: title })
  return (description ? item.filter({ hasText: description }) : item).first()
}

/** axe judges the page at rest: a pointer left over a button would have it judge hover colours. */
async function restPointer(page: Page) {
  await page.mouse.move(1, (page.viewportSize()?.height ?? 800) - 1)
}

function resetLinkFor(email: string): string | null {
  let names: string[]
  try {
    names = readdirSync(OUTBOX)
  } catch {
    return null
  }
  for (const name of names
    .filter((file) => file.endsWith('.json'))
    .sort()
    .reverse()) {
    const message = JSON.parse(readFileSync(join(OUTBOX, name), 'utf8')) as { to: string; text: string }
    if (message.to !== email) continue
    const link = /https?:\/\/\S+\/reset-password\?token=[a-z2-7]+/.exec(message.text)?.[0]
    if (link) return link
  }
  return null
}

async function signedInCookie(page: Page): Promise<string | undefined> {
  return (await page.context().cookies()).find((cookie) => cookie.name === 'signed_in')?.value
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login')
  await waitForIsland(page, 'LoginForm')
  await input(page, 'Email').fill(email)
  await input(page, 'Password').fill(password)
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
}

async function fillShippingAddress(page: Page) {
  await input(page, 'Street address').fill('12 Workshop Lane')
  await input(page, 'City').fill('Austin')
  await input(page, 'State').selectOption('TX')
  await input(page, 'ZIP').fill('73301')
}

// Account tests sign up and in, and run axe often: on a busy machine they need
// more than the default 30 s.
test.beforeEach(() => {
  test.setTimeout(90_000)
})

test.describe('a customer account from sign-up to a new password', () => {
  test('sign up, sign out, sign in, edit the profile, buy, see the order, reset the password', async ({
    page,
    browser,
    axe,
  }, testInfo) => {
    // The whole journey, with a dozen axe runs and several password hashes: minutes on a busy machine.
    test.setTimeout(300_000)
    const email = uniqueEmail(testInfo.project.name)

    // Sign-up: the form's checks first, then the account.
    await page.goto('/signup')
    await waitForIsland(page, 'SignupForm')
    await expect(page.getByRole('heading', { level: 1, name: 'Create Account' })).toBeVisible()
    await restPointer(page)
    await axe()
    await page.getByRole('button', { name: 'Create Account' }).click()
    await expect(toast(page, 'Missing Information', 'Please fill in all fields.')).toBeVisible()
    await expect(input(page, 'First name')).toBeFocused()
    await expect(input(page, 'First name')).toHaveAttribute('aria-invalid', 'true')
    await input(page, 'First name').fill('Sam')
    await input(page, 'Last name').fill('Carpenter')
    await input(page, 'Email').fill(email)
    await input(page, 'Password').fill('12345')
    await input(page, 'Confirm password').fill('12345')
    await page.getByRole('button', { name: 'Create Account' }).click()
    await expect(
      toast(page, 'Password Too Short', 'Password must be at least 6 characters long.'),
    ).toBeVisible()
    await input(page, 'Password').fill(PASSWORD)
    await input(page, 'Confirm password').fill(`${PASSWORD}!`)
    await page.getByRole('button', { name: 'Create Account' }).click()
    await expect(toast(page, 'Passwords do not match')).toBeVisible()
    await expect(input(page, 'Confirm password')).toBeFocused()
    // The show/hide toggle reveals what was typed.
    await page.getByRole('button', { name: 'Show confirm password' }).click()
    await expect(input(page, 'Confirm password')).toHaveAttribute('type', 'text')
    await expect(page.getByRole('button', { name: 'Show confirm password' })).toHaveAttribute(
      'aria-pressed',
      'true',
    )
    await input(page, 'Confirm password').fill(PASSWORD)
    await restPointer(page)
    await axe()
    await page.getByRole('button', { name: 'Create Account' }).click()
    // The welcome is read before the page moves on, as sign-in's is.
    await expect(
      page.getByRole('form', { name: 'Create account' }).getByText('Welcome to the Crew!'),
    ).toBeVisible()

    // Signed in at once: My Account, and the header's account icon leads to /profile.
    await expect(page).toHaveURL(/\/profile$/)
    await expect(page.getByRole('heading', { level: 1, name: 'My Account' })).toBeVisible()
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible()
    // A long e-mail wraps; the page never scrolls sideways on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    await expect(page.locator('header a[href="/profile"]').first()).toBeAttached()
    expect(await signedInCookie(page)).toBe('1')
    const sessionCookie = (await page.context().cookies()).find((cookie) => cookie.name === 'session')
    expect(sessionCookie?.httpOnly).toBe(true)
    expect(sessionCookie?.sameSite).toBe('Lax')
    await restPointer(page)
    await axe()

    // Sign out: back home, the hint gone, and /profile turns the visitor away.
    await page.getByRole('button', { name: 'Logout' }).click()
    await expect(page).toHaveURL(/\/$/)
    expect(await signedInCookie(page)).toBeUndefined()
    await expect(page.locator('header a[href="/login"]').first()).toBeAttached()
    await page.goto('/profile')
    await expect(page).toHaveURL(/\/login$/)

    // Sign in: a wrong password gets the generic text, the right one 'Login successful!' and /account.
    await signIn(page, email, 'not-my-password')
    await expect(
      toast(page, 'Sign In Failed', 'Failed to sign in. Please check your credentials.'),
    ).toBeVisible()
    await expect(input(page, 'Password')).toHaveValue('')
    // The pressed button was disabled while the answer came: focus is back in the emptied field.
    await expect(input(page, 'Password')).toBeFocused()
    await input(page, 'Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()
    await expect(page.getByRole('form', { name: 'Sign in' }).getByText('Login successful!')).toBeVisible()
    await expect(page).toHaveURL(/\/account$/)
    await expect(page.getByRole('heading', { level: 1, name: 'My Account' })).toBeVisible()

    // Personal information: Cancel restores, Save stores, and the message clears after 3 s (checked below,
    // once the address is saved: the same clock, not a wait of its own).
    const personal = page.getByRole('region', { name: 'Personal Information' })
    await personal.getByRole('button', { name: 'Edit personal information' }).click()
    await expect(input(personal, 'First name')).toBeFocused()
    await expect(input(personal, 'Email')).toHaveAttribute('readonly', '')
    await input(personal, 'First name').fill('Samuel')
    await personal.getByRole('button', { name: 'Cancel' }).click()
    // Focus goes back to Edit, not to the page's start.
    await expect(personal.getByRole('button', { name: 'Edit personal information' })).toBeFocused()
    await expect(personal.getByText('Samuel')).toHaveCount(0)
    await expect(personal.getByText('Sam', { exact: true })).toBeVisible()
    await personal.getByRole('button', { name: 'Edit personal information' }).click()
    await input(personal, 'First name').fill('')
    await personal.getByRole('button', { name: 'Save' }).click()
    await expect(toast(page, 'Missing Information')).toBeVisible()
    await expect(input(personal, 'First name')).toHaveAttribute('aria-invalid', 'true')
    await input(personal, 'First name').fill('Samuel')
    await input(personal, 'Phone').fill('(512) 555-0100')
    await restPointer(page)
    await axe()
    // A save that fails leaves the one who pressed Save on it, with the message.
    const update = (url: URL) => url.pathname === '/api/auth/update-profile'
    await page.route(update, (route) => route.fulfill({ status: 503, json: { error: 'Try again shortly.' } }))
    await personal.getByRole('button', { name: 'Save' }).click()
    await expect(personal.getByRole('button', { name: 'Save' })).toBeFocused()
    await page.unroute(update)
    await personal.getByRole('button', { name: 'Save' }).click()
    await expect(personal.getByText('Changes saved successfully!')).toBeVisible()
    const savedShownAt = Date.now()
    await expect(personal.getByText('(512) 555-0100')).toBeVisible()

    // Shipping address: none yet; Cancel leaves none; Save stores one.
    const address = page.getByRole('region', { name: 'Shipping Address' })
    await expect(address.getByText('No shipping address')).toBeVisible()
    await address.getByRole('button', { name: 'Add shipping address' }).click()
    // Opening the form moves focus to its first field; typing elsewhere waits for that, as a person's would.
    await expect(input(address, 'Street address')).toBeFocused()
    await input(address, 'Street address').fill('1 Nowhere St')
    await address.getByRole('button', { name: 'Cancel' }).click()
    await expect(address.getByText('No shipping address')).toBeVisible()
    await address.getByRole('button', { name: 'Add shipping address' }).click()
    await expect(input(address, 'Street address')).toBeFocused()
    await input(address, 'ZIP').fill('123')
    await address.getByRole('button', { name: 'Save' }).click()
    await expect(input(address, 'Street address')).toBeFocused()
    await fillShippingAddress(page)
    await address.getByRole('button', { name: 'Save' }).click()
    await expect(address.getByText('Changes saved successfully!')).toBeVisible()
    await expect(address.getByText('Austin, TX 73301')).toBeVisible()
    // Personal Information's message has cleared by now, within 5 s of showing: its 3 s ran while the
    // address was entered.
    await expect(personal.getByText('Changes saved successfully!')).toBeHidden({
      timeout: Math.max(1, 5_000 - (Date.now() - savedShownAt)),
    })

    // Preferences are stored.
    const sms = page.getByRole('switch', { name: 'SMS Updates' })
    await expect(sms).toHaveAttribute('aria-checked', 'false')
    await sms.click()
    await expect(sms).toHaveAttribute('aria-checked', 'true')
    // While it saved the switch waited without letting go of the focus.
    await expect(sms).toBeFocused()
    await page.reload()
    await expect(page.getByRole('switch', { name: 'SMS Updates' })).toHaveAttribute('aria-checked', 'true')
    await expect(page.getByText('Samuel', { exact: true })).toBeVisible()

    // Tabs: no orders yet, an empty wishlist.
    await page.getByRole('tab', { name: 'Orders' }).click()
    await expect(page.getByRole('heading', { name: 'No Orders Yet' })).toBeVisible()
    await page.getByRole('tab', { name: 'Orders' }).press('ArrowDown')
    await expect(page.getByRole('tab', { name: 'Wishlist' })).toBeFocused()
    await expect(page.getByRole('heading', { name: 'Wishlist Empty' })).toBeVisible()
    await restPointer(page)
    await axe()

    // Buy while signed in: /shipping starts with the e-mail and the saved address.
    await page.goto('/products/whisker-oil')
    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click()
    await page.goto('/cart')
    await waitForIsland(page, 'CartView')
    await page.getByRole('button', { name: 'Continue to Shipping' }).click()
    await waitForIsland(page, 'ShippingCheckout')
    await expect(input(page, 'E-mail')).toHaveValue(email)
    await expect(input(page, 'Full name')).toHaveValue('Samuel Carpenter')
    await expect(input(page, 'Street address')).toHaveValue('12 Workshop Lane')
    await expect(input(page, 'ZIP')).toHaveValue('73301')
    await page.getByRole('button', { name: 'Get Shipping Rates' }).click()
    await page.getByRole('group', { name: 'Select Shipping Method' }).getByRole('radio').first().check()
    await page.getByRole('button', { name: 'Continue to Payment' }).click()
    const number = await payWithTestCard(page, 'Samuel Carpenter')

    // The order is in the history, and 'View Details' opens its page.
    await page.goto('/account#orders')
    await expect(page.getByRole('tab', { name: 'Orders' })).toHaveAttribute('aria-selected', 'true')
    const history = page.getByRole('tabpanel', { name: 'Orders' })
    await expect(history.getByRole('heading', { name: 'Order History' })).toBeVisible()
    await expect(history.getByRole('heading', { name: `Order #${number}` })).toBeVisible()
    await expect(history.getByText('Hammered Citrus × 1')).toBeVisible()
    await restPointer(page)
    await axe()
    await history.getByRole('link', { name: `View details of order ${number}` }).click()
    await expect(page).toHaveURL(new RegExp(`/account/orders\\?number=${number}$`))
    await expect(page.getByRole('heading', { level: 1, name: `Order #${number}` })).toBeVisible()
    await expect(page.getByRole('cell', { name: 'Hammered Citrus' })).toBeVisible()
    await expect(page.getByRole('region', { name: 'Items' })).toContainText(/Subtotal\$21\.00/)
    await expect(page.getByRole('region', { name: 'Status' })).toContainText(
      /PENDING|PROCESSING|LABEL CREATED/,
    )
    await expect(page.getByRole('region', { name: 'Ship To' })).toContainText('12 Workshop Lane')
    await restPointer(page)
    await axe()
    await page.getByRole('link', { name: 'Back to Order History' }).click()
    await expect(page).toHaveURL(/\/account#orders$/)

    // A second browser stays signed in until the reset.
    const other = await browser.newContext({ baseURL: testInfo.project.use.baseURL })
    await suppressWelcomePopup(other)
    await other.addCookies(await page.context().cookies())
    const otherPage = await other.newPage()
    await otherPage.goto('/account')
    await expect(otherPage.getByText(`Signed in as ${email}`)).toBeVisible()

    // Forgot password → the e-mail → the link → a new password.
    await page.goto('/forgot-password')
    await waitForIsland(page, 'ForgotPasswordForm')
    await input(page, 'Email').fill(email)
    await page.getByRole('button', { name: 'Send Reset Link' }).click()
    await expect(page.getByRole('heading', { name: 'Email Sent' })).toBeVisible()
    await expect(toast(page, 'Reset Email Sent')).toBeVisible()
    await restPointer(page)
    await axe()
    let link: string | null = null
    await expect
      .poll(
        () => {
          link = resetLinkFor(email)
          return link
        },
        { timeout: 20_000, message: `a reset e-mail for ${email} in ${OUTBOX}` },
      )
      .not.toBeNull()
    const resetUrl = new URL(link ?? '')
    await page.goto(resetUrl.pathname + resetUrl.search)
    await expect(page.getByRole('heading', { name: 'Update Password' })).toBeVisible()
    // The token leaves the address bar once read.
    await expect(page).toHaveURL(/\/reset-password$/)
    // Whose link it is shows only when the server answers: the hint names the staff rule too.
    await expect(page.getByText('At least 6 characters, 12 for a staff account.')).toBeVisible()
    await restPointer(page)
    await axe()
    await input(page, 'New password').fill(NEW_PASSWORD)
    await input(page, 'Confirm new password').fill('something-else')
    await page.getByRole('button', { name: 'Update Password' }).click()
    await expect(
      toast(page, "Passwords Don't Match", 'Please make sure both passwords are the same.'),
    ).toBeVisible()
    await input(page, 'Confirm new password').fill(NEW_PASSWORD)
    await page.getByRole('button', { name: 'Update Password' }).click()
    await expect(page.getByRole('heading', { name: 'Password Updated' })).toBeVisible()
    // What was wrong before is put right: its message goes at once (not in its 5 s), not staying over the
    // page that says so.
    await expect(toast(page, "Passwords Don't Match")).toHaveCount(0, { timeout: 1_000 })
    await expect(page.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login')
    await restPointer(page)
    await axe()

    // The link works once.
    await page.goto(resetUrl.pathname + resetUrl.search)
    await expect(page.getByRole('heading', { name: 'Invalid Reset Link' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Request a new link' })).toHaveAttribute(
      'href',
      '/forgot-password',
    )
    await restPointer(page)
    await axe()

    // Every old session is gone: the other browser is sent to /login.
    await otherPage.goto('/account')
    await expect(otherPage).toHaveURL(/\/login$/)
    await other.close()

    // The old password no longer works; the new one does.
    await signIn(page, email, PASSWORD)
    await expect(toast(page, 'Sign In Failed')).toBeVisible()
    await input(page, 'Password').fill(NEW_PASSWORD)
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()
    await expect(page).toHaveURL(/\/account$/)
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible()
  })
})

test.describe('sign-in page', () => {
  test("'Checkout Options' offers guest checkout, and a signed-in shopper continues at /shipping", async ({
    page,
    axe,
  }, testInfo) => {
    // An account of their own, not signed in in this browser.
    const email = uniqueEmail(testInfo.project.name, 'checkout')
    await register(page, email)
    await page.context().clearCookies()

    await page.goto('/login?checkout=true')
    await waitForIsland(page, 'LoginForm')
    await expect(page.getByRole('heading', { level: 1, name: 'Checkout Options' })).toBeVisible()
    const guest = page.getByRole('link', { name: 'Continue as Guest' })
    await expect(guest).toHaveAttribute('href', '/checkout?guest=true')
    await expect(page.getByRole('link', { name: 'Forgot Password' })).toHaveAttribute(
      'href',
      '/forgot-password',
    )
    await expect(page.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/signup')
    // Google's round trip comes back into checkout too.
    await expect(page.getByRole('link', { name: 'Sign in with Google' })).toHaveAttribute(
      'href',
      '/google-sign-in?next=%2Fshipping',
    )
    await restPointer(page)
    await axe()

    await input(page, 'Email').fill(email)
    await input(page, 'Password').fill(PASSWORD)
    // 'Signing in...' while the call runs.
    let release: () => void = () => undefined
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    await page.route('**/api/auth/login', async (route: Route) => {
      await held
      await route.continue()
    })
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()
    await expect(page.getByRole('button', { name: 'Signing in...' })).toBeDisabled()
    release()
    // With an empty cart, /shipping sends the shopper on to the cart.
    await expect(page).toHaveURL(/\/(shipping|cart)$/)
  })

  test('a missing field is marked and focused; Welcome Back is the default title', async ({ page, axe }) => {
    await page.goto('/login')
    await waitForIsland(page, 'LoginForm')
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome Back' })).toBeVisible()
    await restPointer(page)
    await axe()
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()
    await expect(toast(page, 'Missing Information', 'Please enter your email and password.')).toBeVisible()
    await expect(input(page, 'Email')).toBeFocused()
    await expect(input(page, 'Email')).toHaveAttribute('aria-invalid', 'true')
    await expect(input(page, 'Password')).toHaveAttribute('aria-invalid', 'true')
    // Typed key by key after that: each field keeps its own keys (focus moves once, not on every render).
    await page.keyboard.type('walker@example.com')
    await input(page, 'Password').click()
    await page.keyboard.type('abc')
    await expect(input(page, 'Email')).toHaveValue('walker@example.com')
    await expect(input(page, 'Password')).toHaveValue('abc')
    await expect(input(page, 'Password')).toBeFocused()
    await page.getByRole('button', { name: 'Show password' }).click()
    await expect(input(page, 'Password')).toHaveAttribute('type', 'text')
  })

  test("on a busy phone, 'Email Sent' takes the focus once it is on the page", async ({ page }) => {
    await page.goto('/forgot-password')
    await waitForIsland(page, 'ForgotPasswordForm')
    await input(page, 'Email').fill(`busy-${Date.now()}@example.com`)
    // The answer's render comes after the next animation frame, as on a phone whose main thread is behind.
    await slowRenders(page)
    await page.getByRole('button', { name: 'Send Reset Link' }).click()
    await expect(page.getByRole('heading', { name: 'Email Sent' })).toBeFocused()
  })

  test('a token in the fragment is kept under "token" and the visitor goes on to /account', async ({
    page,
  }) => {
    await page.goto('/login#token=abc.def.ghi')
    await expect(page).not.toHaveURL(/#token/)
    // Not signed in by cookie, so /account sends the visitor back to /login, without the fragment.
    await expect(page).toHaveURL(/\/login$/)
    expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBe('abc.def.ghi')
  })

  test('coming back from a failed Google sign-in says so', async ({ page }) => {
    await page.goto('/login?google=failed')
    await expect(
      toast(page, 'Google Sign In Failed', 'Google sign-in did not complete. Please try again.'),
    ).toBeVisible()
  })
})

test.describe('Google sign-in', () => {
  // playwright.config.ts runs a local OpenID provider as Google; the `fake_google_email` cookie chooses who
  // signs in there (tests/fakes/openid-provider.ts).
  async function chooseGoogleAccount(page: Page, email: string, baseURL: string | undefined) {
    await page.context().addCookies([{ name: 'fake_google_email', value: email, url: baseURL ?? '' }])
  }

  test('a new Google account is created, signed in by cookie, and refused a password sign-in', async ({
    page,
    axe,
    baseURL,
  }, testInfo) => {
    const email = uniqueEmail(testInfo.project.name, 'gail')
    await chooseGoogleAccount(page, email, baseURL)

    // The hand-off page, held in place (a 204 ends the navigation) so it can be checked.
    await page.route('**/auth/google', (route) => route.fulfill({ status: 204 }))
    await page.goto('/google-sign-in')
    await expect(page.getByRole('heading', { level: 1, name: 'Signing you in...' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'click here' })).toHaveAttribute('href', '/auth/google')
    await restPointer(page)
    await axe()
    await page.unroute('**/auth/google')

    const visited: string[] = []
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(frame.url())
    })
    await page.goto('/login')
    await waitForIsland(page, 'LoginForm')
    await page.getByRole('link', { name: 'Sign in with Google' }).click()
    await expect(page).toHaveURL(/\/account$/)
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible()
    await expect(page.getByRole('region', { name: 'Personal Information' })).toContainText('Gail')
    // docs/product.md#sign-in: the session travels in the HttpOnly cookie, never in a URL of the round trip.
    const session = (await page.context().cookies()).find((cookie) => cookie.name === 'session')
    expect(session?.httpOnly).toBe(true)
    for (const url of visited) expect(url).not.toContain(session?.value ?? 'no session')

    // docs/product.md#accounts: an account made with Google cannot sign in with a password, and is told to use Google.
    await page.getByRole('button', { name: 'Logout' }).click()
    await expect(page).toHaveURL(/\/$/)
    await signIn(page, email, 'any-password-at-all')
    await expect(
      toast(page, 'Use Google Sign In', 'This email is registered with Google. Please use Google Sign In.'),
    ).toBeVisible()
  })

  test('Google sign-in goes back to the page that asked (next), and never to another site', async ({
    page,
    baseURL,
  }, testInfo) => {
    const email = uniqueEmail(testInfo.project.name, 'gnext')
    await chooseGoogleAccount(page, email, baseURL)
    const google = page.getByRole('link', { name: 'Sign in with Google' })
    // A crafted link: the sign-in page drops a next that leaves the site.
    await page.goto(`/login?next=${encodeURIComponent('//evil.example')}`)
    await waitForIsland(page, 'LoginForm')
    await expect(google).toHaveAttribute('href', '/google-sign-in')

    await page.goto(`/login?next=${encodeURIComponent('/profile')}`)
    await waitForIsland(page, 'LoginForm')
    await expect(google).toHaveAttribute('href', '/google-sign-in?next=%2Fprofile')
    await google.click()
    await expect(page).toHaveURL(/\/profile$/)
    await expect(page.getByRole('region', { name: 'Personal Information' })).toContainText('Gail')

    // Crafted links straight to the hand-off page: the server drops them too.
    for (const next of ['//evil.example', 'https://evil.example']) {
      await page.goto(`/google-sign-in?next=${encodeURIComponent(next)}`)
      await expect(page).toHaveURL(/\/account$/)
      expect(new URL(page.url()).origin).toBe(new URL(baseURL ?? '').origin)
    }
  })
})

test.describe('signed-in pages', () => {
  test('an anonymous visitor to /profile, /account or an order page goes to /login before anything paints', async ({
    page,
  }) => {
    // Requests made by the signed-in pages themselves (the /login page's own header may ask; that is fine).
    const asked: string[] = []
    page.on('request', (request) => {
      const from = new URL(request.headers().referer ?? 'http://x/').pathname
      const personal = request.url().includes('/api/auth/user') || request.url().includes('/api/user/')
      if (personal && from !== '/login') asked.push(`${request.url()} from ${from}`)
    })
    for (const path of ['/profile', '/account', '/account#orders', '/account/orders?number=000001']) {
      await page.goto(path)
      await expect(page).toHaveURL(/\/login$/)
    }
    // The head guard left before any island ran: nobody asked the server who this is.
    expect(asked).toEqual([])
  })

  test('a stale signed_in hint is cleared by the server and the visitor still ends at /login', async ({
    page,
    baseURL,
  }) => {
    await page.context().addCookies([
      { name: 'signed_in', value: '1', url: baseURL ?? '' },
      { name: 'session', value: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', url: baseURL ?? '' },
    ])
    await page.goto('/profile')
    await expect(page).toHaveURL(/\/login$/)
    await expect.poll(() => signedInCookie(page)).toBeUndefined()
  })

  test("another customer's order page says it is not found", async ({ page, axe }, testInfo) => {
    await register(page, uniqueEmail(testInfo.project.name, 'nosy'))
    await page.goto('/account/orders?number=000001')
    await expect(page.getByRole('heading', { level: 1, name: 'Order not found' })).toBeVisible()
    await restPointer(page)
    await axe()
  })
})

test.describe('profile', () => {
  test('a phone number the server refuses is shown on its field, which takes the focus', async ({
    page,
    axe,
  }, testInfo) => {
    await register(page, uniqueEmail(testInfo.project.name, 'phone'))
    await page.goto('/profile')
    const personal = page.getByRole('region', { name: 'Personal Information' })
    await personal.getByRole('button', { name: 'Edit personal information' }).click()
    const phone = input(personal, 'Phone')
    await phone.fill('call me after 5')
    // Nothing checks it before it is sent: the server's answer is the one that refuses it.
    const answered = page.waitForResponse((res) => res.url().endsWith('/api/auth/update-profile'))
    await personal.getByRole('button', { name: 'Save' }).click()
    expect((await answered).status()).toBe(422)
    const reason = 'Please enter a phone number with digits, like (512) 555-0100.'
    await expect(phone).toHaveAttribute('aria-invalid', 'true')
    await expect(phone).toHaveAccessibleDescription(reason)
    await expect(phone).toBeFocused()
    await expect(toast(page, 'Check Your Details', reason)).toBeVisible()
    await expect(input(personal, 'First name')).not.toHaveAttribute('aria-invalid')
    await restPointer(page)
    await axe()

    // Typing clears the mark, and a number is saved.
    await phone.fill('(512) 555-0100')
    await expect(phone).not.toHaveAttribute('aria-invalid')
    await expect(phone).toHaveAccessibleDescription('')
    await personal.getByRole('button', { name: 'Save' }).click()
    await expect(personal.getByText('Changes saved successfully!')).toBeVisible()
    await expect(personal.getByText('(512) 555-0100')).toBeVisible()
  })
})

/** Every account form, with what to type into it. */
const FORMS = [
  { path: '/login', fields: { Email: 'early@example.com', Password: 'early-password' } },
  {
    path: '/signup',
    fields: {
      'First name': 'Early',
      'Last name': 'Bird',
      Email: 'early@example.com',
      Password: 'early-password',
      'Confirm password': 'early-password',
    },
  },
  { path: '/forgot-password', fields: { Email: 'early@example.com' } },
] as const

async function typeInto(page: Page, fields: Record<string, string>) {
  for (const [label, value] of Object.entries(fields)) {
    await input(page, label).fill(value)
  }
}

/**
 * Presses Enter in the form's first field and clicks its submit button, then types one more character
 * into the field and waits until the field shows it. A page handles input in the order it comes, so by
 * then it has handled the Enter and the click, and a form they could send would have been sent.
 */
async function trySubmitting(page: Page) {
  const field = page.locator('main form input').first()
  await field.press('Enter')
  await page.locator('main form button[type="submit"]').click({ force: true })
  const typed = await field.inputValue()
  await field.press('End')
  await field.press('!')
  await expect(field).toHaveValue(`${typed}!`)
}

/** Records every request that could carry what was typed: anything but the page's own files. */
function watchRequests(page: Page): string[] {
  const seen: string[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (request.method() !== 'GET' || url.search !== '' || url.pathname.startsWith('/api/')) {
      seen.push(`${request.method()} ${url.pathname}${url.search}`)
    }
  })
  return seen
}

test.describe('account forms before hydration and without JavaScript', () => {
  for (const form of FORMS) {
    test(`${form.path}: submitted the moment it appears, nothing is sent and nothing lands in the URL`, async ({
      page,
    }) => {
      // Hold the page's scripts so the form is only the server's HTML while the shopper types and submits.
      let release: () => void = () => undefined
      const held = new Promise<void>((resolve) => {
        release = resolve
      })
      await page.route(
        (url) => url.pathname.startsWith('/_astro/') && url.pathname.endsWith('.js'),
        async (route) => {
          await held
          await route.continue()
        },
      )
      const seen = watchRequests(page)
      await page.goto(form.path, { waitUntil: 'commit' })
      const submit = page.locator('main form button[type="submit"]')
      await expect(submit).toBeDisabled()
      await typeInto(page, form.fields)
      await trySubmitting(page)
      expect(new URL(page.url()).pathname).toBe(form.path)
      expect(new URL(page.url()).search).toBe('')
      expect(seen).toEqual([])

      // Once the island is there, the same button works.
      release()
      await expect(submit).toBeEnabled({ timeout: 15_000 })
    })

    test(`${form.path}: with JavaScript off the form cannot be sent and says it needs JavaScript`, async ({
      browser,
    }) => {
      const { context, page } = await noScriptPage(browser)
      const seen = watchRequests(page)
      await page.goto(form.path)
      await expect(page.getByText('This form needs JavaScript.')).toBeVisible()
      const submit = page.locator('main form button[type="submit"]')
      await expect(submit).toBeDisabled()
      await expect(page.locator('main form')).toHaveAttribute('method', 'post')
      await typeInto(page, form.fields)
      await trySubmitting(page)
      expect(new URL(page.url()).pathname).toBe(form.path)
      expect(new URL(page.url()).search).toBe('')
      expect(seen).toEqual([])
      expect(await page.content()).not.toContain('{"error"')
      await context.close()
    })
  }

  test('/reset-password with JavaScript off shows no form and says it needs JavaScript', async ({
    browser,
  }) => {
    const { context, page } = await noScriptPage(browser)
    await page.goto('/reset-password?token=abc')
    await expect(page.getByText('This form needs JavaScript.')).toBeVisible()
    await expect(page.locator('main form')).toHaveCount(0)
    await context.close()
  })

  test('/google-sign-in works without JavaScript: the round trip ends signed in at /account', async ({
    browser,
    baseURL,
  }, testInfo) => {
    const { context, page } = await noScriptPage(browser)
    const email = uniqueEmail(testInfo.project.name, 'noscript')
    await context.addCookies([{ name: 'fake_google_email', value: email, url: baseURL ?? '' }])
    await page.goto('/google-sign-in')
    await expect(page).toHaveURL(/\/account$/)
    expect((await context.cookies()).find((cookie) => cookie.name === 'signed_in')?.value).toBe('1')
    await context.close()
  })
})

async function noScriptPage(browser: Browser) {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    baseURL: test.info().project.use.baseURL,
  })
  return { context, page: await context.newPage() }
}

test('the account pages are not indexed', async ({ page }) => {
  await page.route('**/auth/google', (route) => route.fulfill({ status: 204 }))
  for (const path of ['/login', '/signup', '/forgot-password', '/reset-password', '/google-sign-in']) {
    await page.goto(path)
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex')
  }
})
