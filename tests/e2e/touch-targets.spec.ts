// Touch targets on a phone (docs/product.md#every-page): at 390 px wide, every control a shopper taps is
// at least 44 × 44 CSS px, the size WCAG 2.5.5 asks for and Apple's and Google's guides recommend, so a
// thumb does not miss it or press its neighbour. The named controls were once smaller; the page sweep
// keeps any other from creeping in, on the pages as they load and in the states a shopper reaches by using
// them: the header's phone menu and search panel opened, /shipping with its rates, /checkout's demo card form,
// /success after paying, the account's Orders and Wishlist tabs and an order's page. The controls that only
// show once something happens (a toast, the welcome popup, an applied code, a search, the staff dashboard's
// orders and refund form) are measured by name where they show.
import type { Locator, Page } from '@playwright/test'
import { input, register } from './support/accounts'
import { payWithTestCard } from './support/checkout'
import { endSplash, expect, test, waitForIsland } from './support/fixtures'
import { addStaff, insertShippedOrder, serverDatabase, signInToDashboard, unique } from './support/staff'

const MIN = 44

declare global {
  interface Window {
    /** Put into every page of this spec (installTapReach below). */
    tapReach: (element: Element, min: number) => { across: number; down: number } | null
  }
}

/**
 * Gives the page `window.tapReach`: an element scrolled to the middle of the screen, how far across and down
 * from its centre taps still land on it (counted in half pixels, to at most `min` px each side), so an
 * invisible hit area around a smaller box counts and whatever covers part of it does not; null when
 * something covers its centre. The named controls (tapSizes) and the page sweep (smallTargets) both
 * measure with it. Run in the page before its own scripts, so it can use nothing from this file.
 */
function installTapReach() {
  window.tapReach = (element, min) => {
    element.scrollIntoView({ block: 'center', inline: 'center' })
    const middle = element.getBoundingClientRect()
    const x = middle.left + middle.width / 2
    const y = middle.top + middle.height / 2
    const reaches = (atX: number, atY: number) => {
      const hit = document.elementFromPoint(atX, atY)
      return hit !== null && (hit === element || element.contains(hit))
    }
    if (!reaches(x, y)) return null
    const extent = (dx: number, dy: number) => {
      let step = 0
      while (step < min && reaches(x + dx * (step + 0.5), y + dy * (step + 0.5))) step += 0.5
      return step
    }
    return { across: extent(-1, 0) + extent(1, 0), down: extent(0, -1) + extent(0, 1) }
  }
}

test.beforeEach(async ({ isMobile, page }) => {
  test.skip(!isMobile, 'a phone-sized question: the phone project is 390 px wide')
  test.setTimeout(90_000)
  await page.addInitScript(installTapReach)
})

/** Each control's box, named for the failure message. */
async function sizes(controls: Record<string, Locator>): Promise<Record<string, string>> {
  const measured: Record<string, string> = {}
  for (const [name, control] of Object.entries(controls)) {
    const box = await control.boundingBox()
    measured[name] = box ? `${box.width.toFixed(1)} × ${box.height.toFixed(1)}` : 'not shown'
  }
  return measured
}

/** Each control's reach to a tap (window.tapReach), named for the failure message. */
async function tapSizes(controls: Record<string, Locator>): Promise<Record<string, string>> {
  const measured: Record<string, string> = {}
  for (const [name, control] of Object.entries(controls)) {
    await expect(control).toBeVisible()
    measured[name] = await control.evaluate((element, min) => {
      const reach = window.tapReach(element, min)
      return reach ? `${reach.across} × ${reach.down}` : 'covered at its centre'
    }, MIN)
  }
  return measured
}

/** The sizes under 44 px (`min`: a tap's reach is counted in half pixels, half a pixel is let go). */
function tooSmall(measured: Record<string, string>, min = MIN): string[] {
  return Object.entries(measured)
    .filter(([, size]) => {
      const [width, height] = size.split(' × ').map(Number)
      return !(Number(width) >= min && Number(height) >= min)
    })
    .map(([name, size]) => `${name}: ${size}`)
}

test('the carousel, quantity stepper, account-form links and footer links are 44 × 44 px or more', async ({
  page,
}) => {
  await page.goto('/products/repair')
  const carousel = page.getByRole('region', { name: 'Workforce Repair Original Grit images' })
  const productPage = await sizes({
    'Previous image': carousel.getByRole('button', { name: 'Previous image' }),
    'Next image': carousel.getByRole('button', { name: 'Next image' }),
    'Show image 1': carousel.getByRole('button', { name: 'Show image 1' }),
    'Show image 3': carousel.getByRole('button', { name: 'Show image 3' }),
    'Decrease quantity': page.getByRole('button', { name: 'Decrease quantity' }),
    'Increase quantity': page.getByRole('button', { name: 'Increase quantity' }),
    'Quantity field': input(page, 'Quantity'),
  })

  await page.goto('/login')
  const login = await sizes({
    'Forgot Password': page.getByRole('link', { name: 'Forgot Password' }),
    'Sign Up': page.getByRole('link', { name: 'Sign Up' }),
  })
  await page.goto('/signup')
  const signup = await sizes({ 'Sign In': page.getByRole('main').getByRole('link', { name: 'Sign In' }) })

  await page.goto('/')
  const footer = page.locator('footer')
  const footerLinks: Record<string, Locator> = {}
  for (const link of await footer.locator('.footer-links a, .footer-legal a').all()) {
    footerLinks[`footer '${(await link.textContent())?.trim()}'`] = link
  }
  expect(Object.keys(footerLinks).length).toBeGreaterThanOrEqual(10)
  const footerSizes = await sizes(footerLinks)

  expect(tooSmall({ ...productPage, ...login, ...signup, ...footerSizes })).toEqual([])
})

test("a toast's close, the cart's Remove of an applied code and Clear search reach 44 × 44 px", async ({
  page,
}) => {
  await page.goto('/products/whisker-oil')
  await waitForIsland(page, 'SiteHeader')
  await page.getByRole('button', { name: 'Add to Cart', exact: true }).click()
  const added = page.locator('.toast-list li').first()
  await expect(added).toBeVisible()
  const toast = await tapSizes({ "toast's Close": added.getByRole('button', { name: 'Close notification' }) })

  // The code's check answered here, as the server answers it: the server's checks are limited per address,
  // and cart.spec.ts spends them on the codes themselves.
  await page.route('**/api/validate-discount', (route) =>
    route.fulfill({ json: { code: 'GRIT15', type: 'percentage', amount: 15, discountCents: 315 } }),
  )
  await page.goto('/cart')
  await waitForIsland(page, 'CartView')
  await input(page, 'Discount code').fill('GRIT15')
  await page.getByRole('button', { name: 'Apply' }).click()
  const cart = await tapSizes({
    'Remove discount GRIT15': page.getByRole('button', { name: 'Remove discount GRIT15' }),
  })

  await page.goto('/shop?search=oil')
  const shop = await tapSizes({ 'Clear search': page.getByRole('button', { name: 'Clear search' }) })
  expect(tooSmall({ ...toast, ...cart, ...shop }, MIN - 0.5)).toEqual([])
})

test.describe('the welcome popup', () => {
  test.use({ welcomePopup: true })

  test('its Minimise and Close, and the Close of the pill it becomes, reach 44 × 44 px', async ({ page }) => {
    await page.goto('/')
    await endSplash(page)
    const popup = page.getByRole('complementary', { name: 'Welcome to Grit & Whisker' })
    await expect(popup).toBeVisible()
    const open = await tapSizes({
      "popup's Minimise": popup.getByRole('button', { name: 'Minimise welcome message' }),
      "popup's Close": popup.getByRole('button', { name: 'Close welcome message' }),
    })
    await popup.getByRole('button', { name: 'Minimise welcome message' }).click()
    const pill = page.getByRole('complementary', { name: 'Welcome offer' })
    const minimised = await tapSizes({
      "pill's 'Welcome, crew'": pill.getByRole('button', { name: 'Welcome, crew' }),
      "pill's Close": pill.getByRole('button', { name: 'Close welcome message' }),
    })
    expect(tooSmall({ ...open, ...minimised }, MIN - 0.5)).toEqual([])
  })
})

/** A shipped order of one jar written into the server's database: its padded number. */
async function shippedOrder(email: string): Promise<string> {
  const db = await serverDatabase()
  try {
    const now = Date.now()
    const id = await insertShippedOrder(db, { email, name: 'Pat Staff', placedAt: now, updatedAt: now })
    await db.execute({
      sql: `insert into order_lines (order_id, position, product_id, name, variant, unit_cents, quantity,
              discount_cents, weight_tenths_oz) values (?, 0, 1, 'Whisker Oil', null, 2100, 1, 0, 30)`,
      args: [id],
    })
    return String(id).padStart(6, '0')
  } finally {
    db.close()
  }
}

test("the dashboard's order numbers and the refund form's 'By items' and 'By amount' reach 44 × 44 px", async ({
  page,
}, testInfo) => {
  const staff = `${unique(`targets.staff.${testInfo.project.name}`)}@example.com`
  addStaff(staff)
  const customer = `${unique(`targets.customer.${testInfo.project.name}`)}@example.com`
  const number = await shippedOrder(customer)
  await signInToDashboard(page, staff)
  await page.getByRole('searchbox', { name: 'Search orders' }).fill(customer)
  await expect(page.locator(`tr[data-order="${number}"]`)).toBeVisible()
  const orderButton = page.getByRole('button', { name: `#${number} details` })
  const table = await tapSizes({ [`#${number}`]: orderButton })

  await orderButton.click()
  const dialog = page.getByRole('dialog', { name: `Order #${number}` })
  await dialog.getByRole('button', { name: 'Refund', exact: true }).click()
  await expect(dialog.getByRole('radio', { name: 'By items' })).toBeFocused()
  // A tap anywhere on a choice's label picks it.
  const refund = await tapSizes({
    "'By items'": dialog.locator('label', { has: page.getByRole('radio', { name: 'By items' }) }),
    "'By amount'": dialog.locator('label', { has: page.getByRole('radio', { name: 'By amount' }) }),
  })
  expect(tooSmall({ ...table, ...refund }, MIN - 0.5)).toEqual([])
})

/**
 * Every visible control of the page (a, button, input, select, textarea, summary, [role=button|tab|switch]),
 * measured by where a tap lands rather than by its box: from its centre, how far across and down taps still
 * reach it (an ::after hit area counts; something covering it does not). Left out, as WCAG 2.5.8 leaves them
 * out: a link within a sentence of text, and a radio or checkbox inside a label that is itself large enough
 * (a tap on the label is a tap on it).
 */
async function smallTargets(page: Page, within = 'body'): Promise<string[]> {
  return page.evaluate(
    ([min, within]) => {
      const found: string[] = []
      const selector =
        'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=tab], [role=switch]'
      const scope = document.querySelector(within)
      if (!scope) throw new Error(`nothing on the page matches ${within}`)
      for (const element of scope.querySelectorAll<HTMLElement>(selector)) {
        const box = element.getBoundingClientRect()
        if (box.width === 0 || box.height === 0 || getComputedStyle(element).visibility === 'hidden') continue
        if (element.closest('[hidden], [inert], .sr-only, .skip-link')) continue
        const label = element.closest('label')
        if (label && ['radio', 'checkbox'].includes((element as HTMLInputElement).type)) {
          const around = label.getBoundingClientRect()
          if (around.width >= min && around.height >= min) continue
        }
        const block = element.parentElement
        const ownText = element.textContent?.trim() ?? ''
        const blockText = block?.textContent?.trim() ?? ''
        if (element.tagName === 'A' && block && getComputedStyle(element).display === 'inline') {
          if (blockText.length > ownText.length + 20) continue
        }
        const reach = window.tapReach(element, min)
        const labelledBy = document.getElementById(element.getAttribute('aria-labelledby') ?? '')
        const said = element.getAttribute('aria-label') ?? labelledBy?.textContent ?? ownText
        const name = `${element.tagName.toLowerCase()} '${(said || element.getAttribute('name') || element.id).slice(0, 40)}'`
        if (!reach) {
          const middle = element.getBoundingClientRect()
          const cover = document.elementFromPoint(
            middle.left + middle.width / 2,
            middle.top + middle.height / 2,
          )
          found.push(`${name}: covered at its centre by ${cover?.outerHTML.slice(0, 80)}`)
          continue
        }
        if (reach.across < min - 0.5 || reach.down < min - 0.5)
          found.push(`${name}: ${reach.across} × ${reach.down}`)
      }
      return found
    },
    [MIN, within] as const,
  )
}

async function sweep(page: Page, path: string): Promise<string[]> {
  await page.goto(path)
  await page.waitForLoadState('networkidle')
  if ((await page.locator('.splash').count()) > 0) await endSplash(page)
  return (await smallTargets(page)).map((found) => `${path}: ${found}`)
}

test('no other control on the shopper pages is smaller than 44 × 44 px', async ({ page }, testInfo) => {
  const found: string[] = []
  for (const path of [
    '/',
    '/shop',
    '/products/repair',
    '/products/whisker-oil',
    '/login',
    '/signup',
    '/forgot-password',
  ]) {
    found.push(...(await sweep(page, path)))
  }
  // A line in the cart, for the cart's own controls and for /shipping, which sends an empty cart back.
  await page.goto('/products/whisker-oil')
  await waitForIsland(page, 'SiteHeader')
  await page.getByRole('button', { name: 'Add to Cart', exact: true }).click()
  await expect(page.locator('.toast-list li').first()).toBeVisible()
  found.push(...(await sweep(page, '/cart')))
  found.push(...(await sweep(page, '/shipping')))
  await register(page, `targets.${testInfo.project.name}.${Date.now()}@example.com`)
  await page.goto('/profile')
  await expect(page.getByRole('region', { name: 'Personal Information' })).toBeVisible()
  found.push(...(await sweep(page, '/profile')))
  expect(found).toEqual([])
})

/**
 * Back at the top of the page with the header shown: after scrolling down the header hides (docs/product.md
 * #every-page), and a hidden header's controls are out of a thumb's reach by design, not too small. At the
 * top it is neither hidden nor compact, and once its transitions into that have ended it stands where a
 * thumb finds it.
 */
async function atTop(page: Page) {
  await page.evaluate(() => window.scrollTo(0, 0))
  const header = page.locator('.site-header')
  await expect(header).not.toHaveAttribute('data-hidden', 'true')
  await expect(header).not.toHaveAttribute('data-compact', 'true')
  await header.evaluate(async (element) => {
    for (;;) {
      const moving = element.getAnimations({ subtree: true })
      if (moving.length === 0) return
      await Promise.all(moving.map((animation) => animation.finished.catch(() => undefined)))
    }
  })
}

test("nor in the header's open menus, the shipping rates, checkout, success and the account's orders", async ({
  page,
}, testInfo) => {
  test.setTimeout(150_000)
  const found: string[] = []
  const at = (where: string, list: string[]) => found.push(...list.map((one) => `${where}: ${one}`))

  // The phone menu and the search panel, each open on its own over the home page.
  await page.goto('/')
  await endSplash(page)
  await waitForIsland(page, 'SiteHeader')
  await page.getByRole('button', { name: 'Menu' }).click()
  await expect(page.locator('#mobile-menu')).toBeVisible()
  await expect(page.locator('#mobile-menu a').nth(8)).toBeVisible()
  at('menu', await smallTargets(page, '#mobile-menu'))
  await page.keyboard.press('Escape')
  await page.getByRole('button', { name: 'Search the shop' }).click()
  await expect(page.getByRole('searchbox', { name: 'Search products' })).toBeVisible()
  at('search', await smallTargets(page, '#site-search'))
  await page.keyboard.press('Escape')

  // Signed in, one line in the cart, to a paid order.
  await register(page, `targets.orders.${testInfo.project.name}.${Date.now()}@example.com`)
  await page.goto('/products/whisker-oil')
  await waitForIsland(page, 'SiteHeader')
  await page.getByRole('button', { name: 'Add to Cart', exact: true }).click()
  await expect(page.locator('.toast-list li').first()).toBeVisible()
  await page.goto('/shipping')
  await waitForIsland(page, 'ShippingCheckout')
  await input(page, 'Full name').fill('Sam Carpenter')
  await input(page, 'Street address').fill('12 Workshop Lane')
  await input(page, 'City').fill('Austin')
  await page.getByLabel('State').selectOption('TX')
  await input(page, 'ZIP').fill('73301')
  await page.getByRole('button', { name: 'Get Shipping Rates' }).click()
  const methods = page.getByRole('group', { name: 'Select Shipping Method' })
  await expect(methods.getByRole('radio').first()).toBeVisible()
  await methods.getByRole('radio').first().check()
  await atTop(page)
  at('/shipping with rates', await smallTargets(page))
  await page.getByRole('button', { name: 'Continue to Payment' }).click()
  await expect(page).toHaveURL(/\/checkout\?client_secret=cs_test_/)
  await expect(page.getByLabel('Card number')).toBeVisible()
  await atTop(page)
  at('/checkout', await smallTargets(page))
  const number = await payWithTestCard(page, 'Sam Carpenter')
  await atTop(page)
  at('/success', await smallTargets(page))

  for (const tab of ['orders', 'wishlist']) {
    await page.goto(`/profile#${tab}`)
    await expect(page.getByRole('tab', { name: tab === 'orders' ? 'Orders' : 'Wishlist' })).toHaveAttribute(
      'aria-selected',
      'true',
    )
    if (tab === 'orders') await expect(page.getByRole('heading', { name: `Order #${number}` })).toBeVisible()
    await page.waitForLoadState('networkidle')
    await atTop(page)
    at(`/profile#${tab}`, await smallTargets(page))
  }
  await page.goto(`/account/orders?number=${number}`)
  await expect(page.getByRole('heading', { level: 1, name: `Order #${number}` })).toBeVisible()
  await atTop(page)
  at('/account/orders', await smallTargets(page))
  expect(found).toEqual([])
})
