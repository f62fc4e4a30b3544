// Checkout from the shopper's side: product → cart → /shipping → /checkout (demo payment) → /success, the
// order confirmation e-mail in the demo outbox, and the error paths of each page. Runs in both projects
// (phone 390 px, desktop 1280 px) with axe on every page state a shopper sees.
import type { Locator, Page } from '@playwright/test'
import { shopOrigin } from './support/accounts'
import { delayScript, expect, slowRenders, test, waitForIsland } from './support/fixtures'
import { shiftsFromNow } from './support/layout-shift'
import { OUTBOX, outboxMessagesFor } from './support/outbox'

const CARD_DECLINED = '4000 0000 0000 0002'
/** Under what Lighthouse shows as 0.000 (docs/architecture.md#performance-budgets). */
const NO_SHIFT = 0.0005
const CARD_OK = '4242 4242 4242 4242'

function cartLine(id: number, name: string, price: string, quantity: number) {
  return {
    product: {
      id,
      name,
      slug: 'whisker-oil',
      category: 'whisker-oil',
      price,
      weight: '2.0',
      image: '/favicon.svg',
    },
    quantity,
  }
}

/** Puts lines in the cart the way the cart store saves them, then opens `path`. */
async function withCart(page: Page, path: string, lines = [cartLine(1, 'Hammered Citrus', '21.00', 2)]) {
  await page.goto('/about')
  await page.evaluate((saved) => window.localStorage.setItem('cart', JSON.stringify(saved)), lines)
  await page.goto(path)
}

/** The toast region shows one toast at a time; its text is what the shopper reads. */
function toast(page: Page, title: string, description: string | RegExp): Locator {
  return page.locator('.toast-list li', { hasText: title }).filter({ hasText: description }).first()
}

/** The header's cart link, whichever of the bar or the phone menu is on screen. */
function cartLink(page: Page, label: string): Locator {
  return page.getByRole('link', { name: label, exact: true }).locator('visible=true').first()
}

async function fillShippingAddress(page: Page, zip = '73301') {
  await page.getByLabel('Full name').fill('Sam Carpenter')
  await page.getByLabel('Street address').fill('12 Workshop Lane')
  await page.getByLabel('City').fill('Austin')
  await page.getByLabel('State').selectOption('TX')
  await page.getByLabel('ZIP').fill(zip)
}

/**
 * axe on the page at rest: a pointer left over a button after a click would have axe judge its hover
 * colours instead of what the shopper reads.
 */
async function restPointer(page: Page) {
  await page.mouse.move(1, (page.viewportSize()?.height ?? 800) - 1)
}

test.describe('guest checkout', () => {
  test('from a product page to the order number and the confirmation e-mail', async ({
    page,
    axe,
  }, testInfo) => {
    test.setTimeout(120_000)
    const email = `sam.${testInfo.project.name}.${Date.now()}@example.com`

    // Product → cart.
    await page.goto('/products/whisker-oil')
    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click()
    await expect(cartLink(page, 'Cart, 1 item')).toBeVisible()
    await page.goto('/cart')
    await waitForIsland(page, 'CartView')
    await page.getByRole('button', { name: 'Continue to Shipping' }).click()

    // /shipping: nothing filled in yet.
    await expect(page).toHaveURL(/\/shipping$/)
    await waitForIsland(page, 'ShippingCheckout')
    await expect(page.getByRole('heading', { level: 1, name: 'Shipping' })).toBeVisible()
    await restPointer(page)
    await axe()
    const continueToPayment = page.getByRole('button', { name: 'Continue to Payment' })
    await expect(continueToPayment).toBeDisabled()

    await page.getByRole('button', { name: 'Get Shipping Rates' }).click()
    await expect(
      toast(page, 'Missing Information', 'Please fill in all required shipping address fields.'),
    ).toBeVisible()
    await expect(page.getByLabel('Full name')).toBeFocused()
    for (const label of ['Full name', 'Street address', 'City', 'State', 'ZIP']) {
      await expect(page.getByLabel(label)).toHaveAttribute('aria-invalid', 'true')
    }
    await expect(page.getByLabel('Full name')).toHaveAccessibleDescription('Enter the full name.')
    await expect(page.getByText('Enter the ZIP code.')).toBeVisible()
    await expect(page.getByLabel('Apartment, suite, etc.')).not.toHaveAttribute('aria-invalid', 'true')
    await restPointer(page)
    await axe()

    // The address without the e-mail is enough for rates (docs/product.md#shipping) but not for paying.
    await fillShippingAddress(page)
    await expect(page.getByLabel('Full name')).not.toHaveAttribute('aria-invalid', 'true')
    await page.getByRole('button', { name: 'Get Shipping Rates' }).click()
    const methods = page.getByRole('group', { name: 'Select Shipping Method' })
    await expect(methods).toBeVisible()
    const firstRate = methods.getByRole('radio').first()
    await expect(methods.getByText(/Estimated delivery: \d+ business days?/).first()).toBeVisible()
    await expect(methods.getByText(/^\$\d+\.\d{2}$/).first()).toBeVisible()
    await expect(continueToPayment).toBeDisabled()
    await firstRate.check()
    await expect(continueToPayment).toBeEnabled()
    await restPointer(page)
    await axe()

    await continueToPayment.click()
    await expect(
      toast(page, 'Missing Information', 'Please fill in all required shipping fields'),
    ).toBeVisible()
    await expect(page.getByLabel('E-mail')).toBeFocused()
    await expect(page.getByLabel('E-mail')).toHaveAttribute('aria-invalid', 'true')
    await page.getByLabel('E-mail').fill(email)

    // A separate billing address must be complete too.
    await page.getByLabel('Use a different billing address').check()
    const billing = page.locator('#billing-fields')
    await expect(billing.getByLabel('Full name')).toBeVisible()
    await continueToPayment.click()
    await expect(
      toast(page, 'Missing Billing Information', 'Please fill in all required billing address fields'),
    ).toBeVisible()
    await expect(billing.getByLabel('Full name')).toBeFocused()
    await expect(billing.getByLabel('City')).toHaveAttribute('aria-invalid', 'true')
    await restPointer(page)
    await axe()
    await page.getByLabel('Use a different billing address').uncheck()

    // Rates belong to the address they were quoted for.
    await page.locator('#shipping\\.zip').fill('10001')
    await expect(methods).toBeHidden()
    await expect(continueToPayment).toBeDisabled()
    await page.getByRole('button', { name: 'Get Shipping Rates' }).click()
    await expect(methods).toBeVisible()
    await methods.getByRole('radio').first().check()

    // Going back to the cart and returning keeps what was typed and the chosen rate.
    await page.getByRole('link', { name: 'Back to Cart' }).click()
    await expect(page).toHaveURL(/\/cart$/)
    await waitForIsland(page, 'CartView')
    await page.getByRole('button', { name: 'Continue to Shipping' }).click()
    await waitForIsland(page, 'ShippingCheckout')
    await expect(page.getByLabel('E-mail')).toHaveValue(email)
    await expect(page.locator('#shipping\\.zip')).toHaveValue('10001')
    await expect(methods.getByRole('radio').first()).toBeChecked()
    await expect(page.getByRole('button', { name: 'Continue to Payment' })).toBeEnabled()

    // /checkout with the demo provider.
    await page.getByRole('button', { name: 'Continue to Payment' }).click()
    await expect(page).toHaveURL(/\/checkout\?client_secret=cs_test_/)
    await expect(page.getByRole('heading', { level: 1, name: 'Secure Checkout' })).toBeVisible()
    await expect(page.getByText('Secure checkout · SSL encrypted')).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Demo payment — no real card is charged' })).toBeVisible()
    await expect(page.getByText(CARD_OK).first()).toBeVisible()
    await restPointer(page)
    await axe()

    await page.getByRole('button', { name: /^Pay \$/ }).click()
    await expect(page.getByLabel('Card number')).toBeFocused()
    await expect(page.getByLabel('Card number')).toHaveAttribute('aria-invalid', 'true')

    await page.getByLabel('Card number').fill(CARD_DECLINED)
    await page.getByLabel('Expiry (MM/YY)').fill('1234')
    await expect(page.getByLabel('Expiry (MM/YY)')).toHaveValue('12/34')
    await page.getByLabel('CVC').fill('123')
    await page.getByLabel('Name on card').fill('Sam Carpenter')
    await page.getByRole('button', { name: /^Pay \$/ }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined.' })).toBeFocused()
    await expect(page).toHaveURL(/\/checkout\?/)
    await restPointer(page)
    await axe()

    await page.getByLabel('Card number').fill(CARD_OK)
    await page.getByRole('button', { name: /^Pay \$/ }).click()

    // /success: Order ID, then the order number once the order exists; the cart is empty.
    await expect(page).toHaveURL(/\/success\?session_id=cs_test_demo_/)
    const sessionId = new URL(page.url()).searchParams.get('session_id') ?? ''
    await expect(page.getByRole('heading', { level: 1, name: 'Payment Successful!' })).toBeVisible()
    await expect(page.getByText(`${sessionId.slice(0, 20)}...`)).toBeVisible()
    const orderNumber = page.getByText(/^Order number #\d{6}$/)
    await expect(orderNumber).toBeVisible({ timeout: 15_000 })
    const number = ((await orderNumber.textContent()) ?? '').replace(/\D/g, '')
    await expect(page.getByText('Your order will ship within 1-2 business days.')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Continue Shopping' })).toHaveAttribute('href', '/')
    await expect(page.getByRole('link', { name: 'View More Products' })).toHaveAttribute('href', '/shop')
    await expect(cartLink(page, 'Cart, 0 items')).toBeAttached()
    expect(await page.evaluate(() => window.localStorage.getItem('cart'))).toBe('[]')
    // The paid session is no longer the cart's own (docs/decisions/032-one-open-session-per-cart.md).
    expect(await page.evaluate(() => window.localStorage.getItem('checkoutSession'))).toBeNull()
    await restPointer(page)
    await axe()

    // The confirmation e-mail, sent by the background worker, carries the order number.
    await expect
      .poll(() => outboxMessagesFor(email).filter((message) => message.text.includes(number)).length, {
        timeout: 20_000,
        message: `an order confirmation for ${email} in ${OUTBOX}`,
      })
      .toBeGreaterThan(0)
  })
})

test.describe('/shipping', () => {
  test('an empty cart is sent back to /cart', async ({ page }) => {
    await page.goto('/shipping')
    await expect(page).toHaveURL(/\/cart$/)
  })

  test('an empty cart goes back to /cart before any script of the page loads, a full one stays', async ({
    page,
  }) => {
    // The page's own scripts never arrive, as on a phone still fetching them: the head's check does it.
    const shippingScripts: string[] = []
    await page.route('**/_astro/*.js', (route) => {
      if (new URL(page.url()).pathname === '/shipping') shippingScripts.push(route.request().url())
      return route.abort()
    })
    await page.goto('/shipping')
    await expect(page).toHaveURL(/\/cart$/)
    expect(shippingScripts).toEqual([])

    await page.evaluate(() => window.localStorage.setItem('cart', JSON.stringify([{ quantity: 1 }])))
    await page.goto('/shipping')
    await expect(page.getByRole('heading', { name: 'Shipping', level: 1 })).toBeVisible()
    await expect(page).toHaveURL(/\/shipping$/)
  })

  test('the toast naming what was missing goes once the corrected step goes through', async ({ page }) => {
    await withCart(page, '/shipping')
    await waitForIsland(page, 'ShippingCheckout')
    await page.getByRole('button', { name: 'Get Shipping Rates' }).click()
    const missing = toast(page, 'Missing Information', 'Please fill in all required shipping address fields.')
    await expect(missing).toBeVisible()
    // The pointer resting on it keeps it (docs/product.md#every-page): only the step going through takes it away.
    await missing.hover()
    await fillShippingAddress(page)
    await page.getByRole('button', { name: 'Get Shipping Rates' }).focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('group', { name: 'Select Shipping Method' })).toBeVisible()
    await expect(missing).toHaveCount(0)
    // The button pressed was disabled meanwhile: the keyboard carries on from the rates, not the page's top.
    await expect(page.getByRole('heading', { name: 'Select Shipping Method' })).toBeFocused()
    await page.keyboard.press('Tab')
    await expect(page.getByRole('radio').first()).toBeFocused()
  })

  test('on a busy phone, where the rates render a frame late, the keyboard still carries on from them', async ({
    page,
  }) => {
    await withCart(page, '/shipping')
    await waitForIsland(page, 'ShippingCheckout')
    await fillShippingAddress(page)
    await slowRenders(page)
    await page.getByRole('button', { name: 'Get Shipping Rates' }).focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('group', { name: 'Select Shipping Method' })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Select Shipping Method' })).toBeFocused()
  })

  test('what is typed before the page has hydrated is kept', async ({ page }) => {
    await withCart(page, '/about')
    // The page's scripts arrive late, as on a slow phone: the shopper starts typing meanwhile.
    const deliver = await delayScript(page, /\/_astro\/[^?]+\.js$/)
    await page.goto('/shipping', { waitUntil: 'commit' })
    // Until the cart is read, its summary says so: not an empty cart at $0.00.
    const summary = page.getByRole('complementary', { name: 'Order Summary' })
    await expect(summary.getByText('Loading your order…')).toBeVisible()
    await expect(summary).not.toContainText('$0.00')
    await page.getByLabel('E-mail').fill('early@example.com')
    await page.getByLabel('Full name').fill('Sam Carpenter')
    deliver()
    await waitForIsland(page, 'ShippingCheckout')
    await expect(summary.getByText('Loading your order…')).toHaveCount(0)
    await expect(page.getByLabel('E-mail')).toHaveValue('early@example.com')
    await expect(page.getByLabel('Full name')).toHaveValue('Sam Carpenter')
    await page.getByLabel('Street address').fill('12 Workshop Lane')
    await page.getByLabel('City').fill('Austin')
    await page.getByLabel('State').selectOption('TX')
    await page.getByLabel('ZIP').fill('73301')
    await page.getByRole('button', { name: 'Get Shipping Rates' }).click()
    await expect(page.getByRole('group', { name: 'Select Shipping Method' })).toBeVisible()
    await expect(page.getByText('Enter your e-mail address.')).toHaveCount(0)
  })

  test('failed calls show their messages', async ({ page, axe }) => {
    await withCart(page, '/shipping')
    await waitForIsland(page, 'ShippingCheckout')
    await page.getByLabel('E-mail').fill('sam@example.com')
    await fillShippingAddress(page)

    // A carrier or server fault gets the generic text; a 4xx names what to fix.
    await page.route('**/api/shipping/rates', (route) =>
      route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>Bad gateway</h1>' }),
    )
    await page.getByRole('button', { name: 'Get Shipping Rates' }).click()
    await expect(
      toast(page, 'Shipping Error', 'Failed to calculate shipping rates. Please try again.'),
    ).toBeVisible()
    await page.unroute('**/api/shipping/rates')
    await page.getByLabel('State').selectOption('HI')
    await page.getByLabel('ZIP').fill('96813')
    await page.getByRole('button', { name: 'Get Shipping Rates' }).click()
    const methods = page.getByRole('group', { name: 'Select Shipping Method' })
    await methods.getByRole('radio').first().check()
    await restPointer(page)
    await axe()

    // A payment session answer that is not JSON (a proxy page).
    await page.route('**/api/create-checkout-session', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<html>maintenance</html>' }),
    )
    await page.getByRole('button', { name: 'Continue to Payment' }).click()
    await expect(
      toast(page, 'Payment Error', 'Server returned invalid response: <html>maintenance</html>'),
    ).toBeVisible()
    await expect(page.getByRole('button', { name: 'Continue to Payment' })).toBeEnabled()
    await expect(page).toHaveURL(/\/shipping$/)
  })

  test('an order below $0.50 after discounts cannot go to payment', async ({ page }) => {
    await page.goto('/about')
    // A fixed discount (cents) larger than the cart, as the cart store saves it.
    await page.evaluate(() =>
      window.localStorage.setItem(
        'discountApplied',
        JSON.stringify({ code: 'BIGTEST', type: 'fixed', amount: 5000 }),
      ),
    )
    await withCart(page, '/shipping', [cartLine(4, 'Workforce Repair Original Grit', '13.00', 1)])
    await waitForIsland(page, 'ShippingCheckout')
    await expect(page.getByText('Discount (BIGTEST)')).toBeVisible()
    await page.getByLabel('E-mail').fill('sam@example.com')
    await fillShippingAddress(page)
    await page.getByRole('button', { name: 'Get Shipping Rates' }).click()
    await page.getByRole('group', { name: 'Select Shipping Method' }).getByRole('radio').first().check()
    await page.getByRole('button', { name: 'Continue to Payment' }).click()
    await expect(
      toast(
        page,
        'Order Total Too Low',
        'Order total must be at least $0.50 after discounts. Please add more items or use a smaller discount.',
      ),
    ).toBeVisible()
    await expect(page).toHaveURL(/\/shipping$/)
  })

  test('the rates take the room kept for them: nothing below moves when they come or go', async ({
    page,
  }) => {
    await withCart(page, '/shipping')
    await waitForIsland(page, 'ShippingCheckout')
    await page.getByLabel('E-mail').fill('sam@example.com')
    await fillShippingAddress(page)
    const button = page.getByRole('button', { name: 'Get Shipping Rates' })
    /** The height of the rates' section, or null when there is none. */
    const ratesHeight = () =>
      page
        .getByRole('heading', { name: 'Select Shipping Method' })
        .evaluateAll((found) => found[0]?.closest('section')?.getBoundingClientRect().height ?? null)
    // The button at the top of the screen: what is below the rates (on a phone the order summary, on a
    // desktop the footer) is on screen when they come.
    await button.evaluate((element) => element.scrollIntoView({ block: 'start' }))
    const room = await ratesHeight()
    const shifts = await shiftsFromNow(page)
    await button.click()
    await expect(page.getByRole('radio')).toHaveCount(3)
    expect(await shifts()).toBeLessThan(NO_SHIFT)
    expect(room).not.toBeNull()
    expect(await ratesHeight()).toBe(room)
    // A changed address discards them: the room stays.
    const gone = await shiftsFromNow(page)
    await page.locator('#shipping\\.zip').fill('10001')
    await expect(page.getByRole('radio')).toHaveCount(0)
    expect(await gone()).toBeLessThan(NO_SHIFT)
    expect(await ratesHeight()).toBe(room)
  })

  test('the server names a bad address', async ({ page }) => {
    await withCart(page, '/shipping')
    await waitForIsland(page, 'ShippingCheckout')
    await fillShippingAddress(page)
    await page.route('**/api/shipping/rates', (route) =>
      route.fulfill({ status: 422, json: { error: 'Please enter a valid ZIP code.' } }),
    )
    await page.getByRole('button', { name: 'Get Shipping Rates' }).click()
    await expect(toast(page, 'Shipping Error', 'Please enter a valid ZIP code.')).toBeVisible()
  })
})

test.describe('/checkout', () => {
  test('without a client secret', async ({ page, axe }) => {
    await page.goto('/checkout')
    await expect(page.getByRole('heading', { name: 'Checkout Error' })).toBeVisible()
    await expect(page.getByText('Failed to initialize checkout: Missing checkout session')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Return to Cart' })).toHaveAttribute('href', '/cart')
    await expect(page.getByRole('link', { name: 'Back to Shipping' })).toHaveAttribute('href', '/shipping')
    await restPointer(page)
    await axe()
  })

  test('the demo card form names every field to fix at once, before anything is sent', async ({
    page,
    axe,
  }) => {
    // A session for one jar, opened through the shop's own calls as /shipping opens it.
    const headers = { origin: shopOrigin() }
    const address = {
      name: 'Sam Carpenter',
      street1: '12 Mill Rd',
      city: 'Austin',
      state: 'TX',
      zip: '78701',
    }
    const rates = await page.request.post('/api/shipping/rates', {
      headers,
      data: { address, items: [{ id: 1, quantity: 1 }] },
    })
    const rate = ((await rates.json()) as { rates: { id: string }[] }).rates[0]
    const session = await page.request.post('/api/create-checkout-session', {
      headers,
      data: {
        line_items: [{ product_id: 1, quantity: 1 }],
        customer_email: 'sam.card@example.com',
        shipping_address: address,
        shipping_rate: { id: rate?.id },
      },
    })
    expect(session.status(), await session.text()).toBe(200)
    await page.goto(((await session.json()) as { url: string }).url)
    const paid: string[] = []
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/api/demo-payments/'))
        paid.push(request.url())
    })

    // A number that fails its checksum, a card that expired, a four-digit code: each its own message.
    const number = page.getByLabel('Card number')
    await number.fill('4242 4242 4242 4241')
    await page.getByLabel('Expiry (MM/YY)').fill('0120')
    await page.getByLabel('CVC').fill('1234')
    await page.getByLabel('Name on card').fill('Sam Carpenter')
    await page.getByRole('button', { name: /^Pay \$/ }).click()
    await expect(number).toBeFocused()
    for (const [label, message] of [
      ['Card number', 'Your card number is invalid.'],
      ['Expiry (MM/YY)', 'Your card has expired.'],
      ['CVC', "Please enter the card's 3-digit security code."],
    ] as const) {
      await expect(page.getByLabel(label)).toHaveAttribute('aria-invalid', 'true')
      await expect(page.getByLabel(label)).toHaveAccessibleDescription(message)
    }
    await expect(page.getByLabel('Name on card')).not.toHaveAttribute('aria-invalid')
    expect(paid).toEqual([])
    await restPointer(page)
    await axe()
  })

  test('with a client secret of the wrong format', async ({ page }) => {
    await page.goto('/checkout?client_secret=pi_123_secret_456')
    await expect(page.getByText('Failed to initialize checkout: Invalid client secret format')).toBeVisible()
  })

  test('with a well-formed secret for a session that does not exist', async ({ page }) => {
    await page.goto('/checkout?client_secret=cs_test_demo_Nope123_secret_abc')
    await expect(page.getByText('Failed to initialize checkout: Checkout session not found.')).toBeVisible()
  })

  test('when the publishable key cannot be fetched', async ({ page }) => {
    await page.route('**/api/stripe/publishable-key', (route) => route.fulfill({ status: 500, body: 'down' }))
    await page.goto('/checkout?client_secret=cs_test_demo_Nope123_secret_abc')
    await expect(
      page.getByText('Failed to initialize checkout: Failed to fetch publishable key'),
    ).toBeVisible()
  })

  test('with Stripe keys, Stripe.js is loaded and embedded checkout is mounted', async ({ page }) => {
    const secret = 'cs_test_a1B2c3_secret_d4E5'
    await page.route('**/api/stripe/publishable-key', (route) =>
      route.fulfill({ json: { publishableKey: 'pk_test_123' } }),
    )
    // A stand-in for Stripe.js (the test machine has no internet): records what the page asks of it.
    await page.route('https://js.stripe.com/endive/stripe.js', (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: `window.Stripe = (key) => ({
          createEmbeddedCheckoutPage: async ({ fetchClientSecret }) => {
            const secret = await fetchClientSecret()
            return {
              mount(selector) {
                const frame = document.createElement('p')
                frame.textContent = 'Embedded checkout for ' + key + ' / ' + secret
                document.querySelector(selector).append(frame)
              },
              destroy() {},
            }
          },
        })`,
      }),
    )
    await page.goto(`/checkout?client_secret=${secret}`)
    await expect(page.locator('#checkout')).toContainText(`Embedded checkout for pk_test_123 / ${secret}`)
    await expect(page.getByText('Loading secure checkout...')).toBeHidden()
  })

  test('with Stripe keys but no Stripe.js, the page says the script failed', async ({ page }) => {
    await page.route('**/api/stripe/publishable-key', (route) =>
      route.fulfill({ json: { publishableKey: 'pk_test_123' } }),
    )
    await page.route('https://js.stripe.com/**', (route) => route.abort())
    await page.goto('/checkout?client_secret=cs_test_a1B2c3_secret_d4E5')
    await expect(
      page.getByText('Failed to initialize checkout: Failed to load the payment script'),
    ).toBeVisible()
  })

  test('without a publishable key and without the demo provider', async ({ page }) => {
    await page.route('**/api/stripe/publishable-key', (route) =>
      route.fulfill({ json: { publishableKey: null } }),
    )
    await page.goto('/checkout?client_secret=cs_test_a1B2c3_secret_d4E5')
    await expect(page.getByText('Failed to initialize checkout: Publishable key not available')).toBeVisible()
  })

  test('a guest from /login continues at the shipping step', async ({ page }) => {
    await withCart(page, '/checkout?guest=true')
    await expect(page).toHaveURL(/\/shipping$/)
  })

  test("only this page allows Stripe's hosts; every page allows only its own origin otherwise", async ({
    page,
  }) => {
    /** The page's policy as directive name → sources. */
    const policyOf = async (path: string) => {
      await page.goto(path)
      const content = await page.locator('meta[http-equiv="content-security-policy"]').getAttribute('content')
      return Object.fromEntries(
        (content ?? '')
          .split(';')
          .map((directive) => directive.trim().split(/\s+/))
          .filter(([name]) => name)
          .map(([name, ...sources]) => [name, sources]),
      )
    }
    const checkout = await policyOf('/checkout')
    expect(checkout['default-src']).toEqual(["'self'"])
    expect(checkout['connect-src']).toEqual(["'self'", 'https://api.stripe.com'])
    expect(checkout['script-src']).toEqual(expect.arrayContaining(["'self'", 'https://js.stripe.com']))
    expect(checkout['frame-src']).toEqual(expect.arrayContaining(['https://js.stripe.com']))

    for (const path of ['/', '/shipping']) {
      const elsewhere = await policyOf(path)
      expect(elsewhere['default-src']).toEqual(["'self'"])
      expect(elsewhere['connect-src']).toEqual(["'self'"])
      expect(elsewhere['frame-src']).toBeUndefined()
      expect(JSON.stringify(elsewhere)).not.toContain('stripe.com')
    }
  })
})

test.describe('/success', () => {
  test('empties a seeded cart and shows the Order ID', async ({ page, axe }) => {
    const sessionId = 'cs_test_demo_UnknownSession1234'
    await withCart(page, `/success?session_id=${sessionId}`)
    await expect(page.getByRole('heading', { level: 1, name: 'Payment Successful!' })).toBeVisible()
    await expect(page.getByText('cs_test_demo_Unknown...')).toBeVisible()
    await expect(cartLink(page, 'Cart, 0 items')).toBeAttached()
    await expect.poll(() => page.evaluate(() => window.localStorage.getItem('cart'))).toBe('[]')
    // No order will appear for a session the shop never made: the page says where the number will come.
    await expect(page.getByText('Your order number will be in your confirmation e-mail.')).toBeVisible()
    await restPointer(page)
    await axe()
  })
})
