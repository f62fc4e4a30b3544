// Forms before hydration (docs/decisions/009-forms-before-hydration.md): a form sent before its island has hydrated, or with
// JavaScript off, never puts personal data in a URL and never leaves the visitor on raw JSON. The newsletter
// forms work without JavaScript (POST, then a 303 to a page that says what happened); the checkout forms
// cannot be sent until their island is ready. Each form is sent the moment its page has loaded, with the
// site's scripts held back (a slow phone whose JavaScript has not arrived yet) and with JavaScript off.
// The product page's 'Add to Cart' is of the second kind too: the cart lives in the browser (record 009).
import type { Locator, Page } from '@playwright/test'
import { delayScript, expect, test, waitForIsland } from './support/fixtures'
import { serverDatabase } from './support/staff'

/** Stops every script of the built site from loading, so no island ever hydrates: only the static HTML works. */
async function holdBackScripts(page: Page) {
  await page.route(/\/_astro\/[^?]+\.js(\?.*)?$/, (route) => route.abort())
}

interface Document {
  url: string
  status: number
  type: string
}

/** Every page the tab asks for (redirects included), to check afterwards what reached the address bar. */
function recordDocuments(page: Page): Document[] {
  const documents: Document[] = []
  page.on('response', (response) => {
    const request = response.request()
    if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return
    documents.push({
      url: response.url(),
      status: response.status(),
      type: response.headers()['content-type'] ?? '',
    })
  })
  return documents
}

/** A fresh address per test, with a token that is easy to look for in URLs however it was encoded. */
function freshEmail(label: string): { email: string; token: string } {
  const token = `${label}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`
  return { email: `${token}@example.com`, token }
}

function expectNoPersonalDataInUrls(documents: Document[], token: string) {
  expect(documents.length).toBeGreaterThan(0)
  for (const document of documents) expect(document.url).not.toContain(token)
}

function expectNoJsonPage(documents: Document[]) {
  // A redirect is never shown; every page that is shown must be HTML.
  for (const document of documents.filter((d) => d.status < 300 || d.status >= 400)) {
    expect(document.type, `${document.url} answered ${document.type}`).toContain('text/html')
  }
}

/**
 * The sign-up reached the list, as the server's database shows (playwright.config.ts): the API answers a new
 * and a known address alike, so only the database can tell.
 */
async function expectOnTheList(_page: Page, email: string) {
  const db = await serverDatabase()
  try {
    const rows = await db.execute({
      sql: 'select email from newsletter_subscribers where email = ?',
      args: [email],
    })
    expect(rows.rows.length).toBe(1)
  } finally {
    db.close()
  }
}

interface SignupForm {
  name: string
  path: string
  form: (page: Page) => Locator
  field: string
  button: string
  /** Where the visitor lands, and the heading that says what happened. */
  lands: string
  heading: string
}

const SIGNUPS: SignupForm[] = [
  {
    name: 'the footer newsletter',
    path: '/about',
    form: (page) => page.getByRole('contentinfo'),
    field: 'Join the newsletter',
    button: 'Subscribe',
    lands: '/newsletter/subscribed',
    heading: 'Welcome to the Crew',
  },
  {
    name: "home 'Join The Crew'",
    path: '/',
    form: (page) => page.getByRole('region', { name: 'Join The Crew' }),
    field: 'Email address',
    button: 'Subscribe',
    lands: '/newsletter/subscribed',
    heading: 'Welcome to the Crew',
  },
  {
    name: 'the /shop e-mail capture',
    path: '/shop',
    form: (page) => page.getByRole('region', { name: 'Join the Crew' }),
    field: 'Email address',
    button: 'Subscribe',
    lands: '/newsletter/subscribed',
    heading: 'Welcome to the Crew',
  },
  {
    name: 'the /supply-drop waitlist',
    path: '/supply-drop',
    form: (page) => page.getByRole('form', { name: 'Get on the list' }),
    field: 'Email address',
    button: 'Join Waitlist',
    lands: '/newsletter/waitlisted',
    heading: 'You’re on the Waitlist',
  },
]

async function signUpAtOnce(page: Page, signup: SignupForm, email: string, submitWith: 'Enter' | 'click') {
  await page.goto(signup.path)
  const form = signup.form(page)
  const field = form.getByRole('textbox', { name: signup.field })
  await field.fill(email)
  if (submitWith === 'Enter') await field.press('Enter')
  else await form.getByRole('button', { name: signup.button }).click()
  await expect(page).toHaveURL(signup.lands)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(signup.heading)
}

for (const [mode, setUp] of [
  ['before hydration', holdBackScripts],
  ['with JavaScript off', null],
] as const) {
  test.describe(`newsletter forms ${mode}`, () => {
    if (!setUp) test.use({ javaScriptEnabled: false })

    for (const signup of SIGNUPS) {
      test(`${signup.name} signs up and says so, with no e-mail in the URL`, async ({ page }) => {
        if (setUp) await setUp(page)
        const documents = recordDocuments(page)
        const { email, token } = freshEmail('early')
        await signUpAtOnce(page, signup, email, signup.button === 'Join Waitlist' ? 'click' : 'Enter')
        expectNoPersonalDataInUrls(documents, token)
        expectNoJsonPage(documents)
        await expectOnTheList(page, email)
      })
    }

    test('an address the shop refuses lands on a page that says why, with a way back', async ({ page }) => {
      if (setUp) await setUp(page)
      const documents = recordDocuments(page)
      await page.goto('/')
      const form = page.getByRole('region', { name: 'Join The Crew' })
      // The browser accepts this address; the shop's own check refuses it (no dot in the domain).
      await form.getByRole('textbox', { name: 'Email address' }).fill('crewmate@localhost')
      await form.getByRole('textbox', { name: 'Email address' }).press('Enter')
      await expect(page).toHaveURL('/newsletter/invalid-email')
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check Your Email Address')
      await expect(page.locator('main').getByRole('link', { name: 'Try Again' })).toBeVisible()
      await expect(page.locator('main').getByRole('link', { name: 'Back to Home' })).toHaveAttribute(
        'href',
        '/',
      )
      expectNoPersonalDataInUrls(documents, 'crewmate')
      expectNoJsonPage(documents)
    })
  })
}

test.describe('newsletter outcome pages', () => {
  const OUTCOMES: [string, string][] = [
    ['/newsletter/subscribed', 'Welcome to the Crew'],
    ['/newsletter/waitlisted', 'You’re on the Waitlist'],
    ['/newsletter/invalid-email', 'Check Your Email Address'],
    ['/newsletter/try-later', 'Too Many Sign-Ups'],
    ['/newsletter/failed', 'Sign-Up Failed'],
  ]
  for (const [path, heading] of OUTCOMES) {
    test(`${path} says what happened, is kept out of search engines and passes axe`, async ({
      page,
      axe,
    }) => {
      const response = await page.goto(path)
      expect(response?.status()).toBe(200)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading)
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex')
      await expect(page.locator('main').getByRole('link', { name: 'Back to Home' })).toHaveAttribute(
        'href',
        '/',
      )
      await axe()
    })
  }

  test('the subscribed page hands out the first-order code, as the dialog does', async ({ page }) => {
    await page.goto('/newsletter/subscribed')
    await expect(page.locator('main')).toContainText('10% off your first order')
    await expect(page.locator('main')).toContainText('CREW10')
  })
})

test.describe('checkout and cart forms cannot be sent before they are ready', () => {
  for (const [mode, setUp] of [
    ['before hydration', holdBackScripts],
    ['with JavaScript off', null],
  ] as const) {
    test.describe(mode, () => {
      if (!setUp) test.use({ javaScriptEnabled: false })

      test('the shipping form keeps the address out of the URL', async ({ page }) => {
        if (setUp) await setUp(page)
        const documents = recordDocuments(page)
        const { email, token } = freshEmail('ship')
        // A shopper arrives with something in the cart: /shipping with an empty one goes back to /cart.
        await page.addInitScript(() => {
          const line = {
            product: {
              id: 1,
              name: 'Hammered Citrus',
              slug: 'whisker-oil',
              category: 'whisker-oil',
              price: '21.00',
              weight: '2.0',
              image: '/favicon.svg',
            },
            quantity: 1,
          }
          window.localStorage.setItem('cart', JSON.stringify([line]))
        })
        await page.goto('/shipping')
        await expect(page.getByRole('button', { name: 'Get Shipping Rates' })).toBeDisabled()
        // A second guard: were the form ever sent, it would be a POST, never a GET with the address.
        await expect(page.getByRole('form', { name: 'Shipping Address' })).toHaveAttribute('method', 'post')
        await page.getByRole('textbox', { name: 'Full name', exact: true }).fill(`Pat ${token}`)
        await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email)
        const navigated = page.waitForEvent('framenavigated', { timeout: 1_500 }).then(
          () => true,
          () => false,
        )
        await page.getByRole('textbox', { name: 'E-mail', exact: true }).press('Enter')
        expect(await navigated).toBe(false)
        await expect(page).toHaveURL('/shipping')
        expectNoPersonalDataInUrls(documents, token)
      })

      test("the product page's Add to Cart waits for its script, says so, and keeps the choice out of the URL", async ({
        page,
      }) => {
        if (setUp) await setUp(page)
        const documents = recordDocuments(page)
        await page.goto('/products/whisker-oil')
        const add = page.getByRole('button', { name: 'Add to Cart', exact: true })
        await expect(add).toBeDisabled()
        const loading = page.getByText('Loading the cart…')
        const needsScript = page.getByText(
          'The cart needs JavaScript. Please turn it on to add this to your cart.',
        )
        await expect(setUp ? loading : needsScript).toBeVisible()
        await expect(setUp ? needsScript : loading).toBeHidden()

        await page
          .getByRole('group', { name: 'Available Scents' })
          .getByLabel(/Unscented/)
          .check()
        const quantity = page.getByLabel('Quantity', { exact: true })
        await quantity.fill('3')
        const navigated = page.waitForEvent('framenavigated', { timeout: 1_500 }).then(
          () => true,
          () => false,
        )
        await quantity.press('Enter')
        await add.click({ force: true })
        expect(await navigated).toBe(false)
        await expect(page).toHaveURL('/products/whisker-oil')
        for (const document of documents) expect(document.url).not.toContain('?')
      })

      test("a product card's Add to Cart cannot be pressed before its script, and is not shown without one", async ({
        page,
      }) => {
        if (setUp) await setUp(page)
        await page.goto('/shop')
        const add = page.getByRole('button', { name: 'Add to Cart: Alpine Wash' })
        if (setUp) {
          await expect(add).toBeDisabled()
          // The phones' 'Filter Products' toggle waits for the same scripts.
          await expect(page.locator('[data-filter-toggle]')).toBeDisabled()
          await add.click({ force: true })
          expect(await page.evaluate(() => localStorage.getItem('cart'))).toBeNull()
        } else {
          await expect(add).toBeHidden()
          await expect(page.getByRole('link', { name: 'Alpine Wash' })).toHaveAttribute(
            'href',
            '/products/whisker-wash',
          )
        }
      })

      test('the cart shows no discount form until it has read the cart', async ({ page }) => {
        if (setUp) await setUp(page)
        await page.goto('/cart')
        await expect(page.getByRole('heading', { level: 1, name: 'Shopping Cart' })).toBeVisible()
        await expect(page.getByRole('textbox', { name: 'Discount code' })).toHaveCount(0)
        await expect(page.getByRole('button', { name: 'Apply' })).toHaveCount(0)
      })
    })
  }
})

test.describe('typed before the script ran, sent after', () => {
  test('the footer form sends the address that was typed', async ({ page }) => {
    const deliver = await delayScript(page, /\/_astro\/FooterNewsletter\.astro_astro_type_script[^/]*\.js$/)
    const { email } = freshEmail('typed')
    // Not waiting for 'load': a module script holds that back, and this one has not arrived yet.
    await page.goto('/about', { waitUntil: 'commit' })
    await page.getByRole('textbox', { name: 'Join the newsletter' }).fill(email)
    deliver()
    await expect(page.locator('form[data-footer-newsletter]')).toHaveAttribute('data-ready', '')

    const alerts: string[] = []
    page.on('dialog', async (dialog) => {
      alerts.push(dialog.message())
      await dialog.accept()
    })
    const request = page.waitForRequest('**/api/newsletter')
    await page.getByRole('contentinfo').getByRole('button', { name: 'Subscribe' }).click()
    expect((await request).postDataJSON()).toEqual({ email, source: 'footer' })
    await expect.poll(() => alerts).toEqual([`Subscribed with email: ${email}`])
    await expect(page).toHaveURL('/about')
  })

  test("home 'Join The Crew' sends the address that was typed", async ({ page }) => {
    const deliver = await delayScript(page, /\/_astro\/NewsletterSignup\.[^/]+\.js$/)
    const { email } = freshEmail('typed')
    await page.goto('/')
    const form = page.getByRole('region', { name: 'Join The Crew' })
    await form.getByRole('textbox', { name: 'Email address' }).fill(email)
    deliver()
    await waitForIsland(page, 'NewsletterSignup')

    const request = page.waitForRequest('**/api/newsletter')
    await form.getByRole('button', { name: 'Subscribe' }).click()
    expect((await request).postDataJSON()).toEqual({ email, source: 'home' })
    await expect(page.getByRole('dialog', { name: 'Welcome to the Crew' })).toBeVisible()
    await expect(form.getByRole('textbox', { name: 'Email address' })).toHaveValue('')
    await expect(page).toHaveURL('/')
  })

  test('what is typed into a sign-in form before its script arrives is what it sends', async ({ page }) => {
    const deliver = await delayScript(page, /\/_astro\/[^?]+\.js$/)
    await page.goto('/forgot-password', { waitUntil: 'commit' })
    const { email } = freshEmail('early')
    await page.getByLabel('Email').fill(email)
    deliver()
    await page.getByRole('button', { name: 'Send Reset Link' }).click()
    await expect(page.getByRole('heading', { name: 'Email Sent' })).toBeVisible()
    await expect(page.getByText(email)).toBeVisible()

    const again = await delayScript(page, /\/_astro\/[^?]+\.js$/)
    await page.goto('/login', { waitUntil: 'commit' })
    await page.getByLabel('Email').fill(email)
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('not-the-password')
    again()
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()
    // Sent, and refused by the server: not stopped in the page as empty.
    await expect(page.getByText('Failed to sign in. Please check your credentials.').first()).toBeVisible()
    await expect(page.getByText('Enter your e-mail address.')).toHaveCount(0)
  })

  test("a product card's Add to Cart is enabled once its script arrives, and adds", async ({ page }) => {
    const deliver = await delayScript(page, /\/_astro\/[^?]+\.js$/)
    // Not waiting for 'load': a module script holds that back, and none has arrived yet.
    await page.goto('/shop', { waitUntil: 'commit' })
    const add = page.getByRole('button', { name: 'Add to Cart: Alpine Wash' })
    await expect(add).toBeDisabled()
    deliver()
    await expect(add).toBeEnabled()
    await add.click()
    await expect(page.getByRole('link', { name: 'Cart, 1 item' })).toBeVisible()
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('cart') ?? '[]'))
    expect(saved).toEqual([
      expect.objectContaining({ product: expect.objectContaining({ name: 'Alpine Wash' }), quantity: 1 }),
    ])
  })

  test("Add to Cart adds what was chosen before its script arrived, once it has; it and the quantity's buttons wait for it", async ({
    page,
  }) => {
    const deliver = await delayScript(page, /\/_astro\/AddToCart\.astro_astro_type_script[^/]*\.js$/)
    // Not waiting for 'load': a module script holds that back, and this one has not arrived yet.
    await page.goto('/products/whisker-oil', { waitUntil: 'commit' })
    const add = page.getByRole('button', { name: 'Add to Cart', exact: true })
    const increase = page.getByRole('button', { name: 'Increase quantity' })
    await expect(add).toBeDisabled()
    await expect(increase).toBeDisabled()
    await expect(page.getByText('Loading the cart…')).toBeVisible()
    await page
      .getByRole('group', { name: 'Available Scents' })
      .getByLabel(/Unscented/)
      .check()
    await page.getByLabel('Quantity', { exact: true }).fill('2')

    deliver()
    await expect(add).toBeEnabled()
    await expect(page.getByText('Loading the cart…')).toBeHidden()
    await increase.click()
    await expect(page.getByLabel('Quantity', { exact: true })).toHaveValue('3')
    await add.click()
    await expect(page.getByRole('link', { name: 'Cart, 3 items' })).toBeVisible()
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('cart') ?? '[]'))
    expect(saved).toEqual([
      {
        product: expect.objectContaining({ slug: 'whisker-oil' }),
        quantity: 3,
        selectedVariant: 'Unscented',
      },
    ])
    await expect(page).toHaveURL('/products/whisker-oil')
  })
})
