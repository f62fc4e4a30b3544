// The page shell on every page: splash, header (scroll, dropdowns, hamburger, search, cart badge, account,
// theme), footer (newsletter, back to top), toasts, welcome popup, research ticker, CSP and layout
// stability. Runs in both projects (phone 390 px, desktop 1280 px); width-specific parts force a width.
import type { Page } from '@playwright/test'
import { WELCOME_FLAGS } from '../../site/features/welcome/flags'
import { delayScript, expect, test, waitForIsland, waitForSplash } from './support/fixtures'
import { layoutShiftTotal, watchLayoutShifts } from './support/layout-shift'

const TOOLBOX = [
  ['Whisker Oil', '/products/whisker-oil'],
  ['Whisker Tamer', '/products/whisker-tamer'],
  ['Whisker Wash', '/products/whisker-wash'],
  ['Workforce Repair', '/products/repair'],
  ['Accessories', '/products/accessories'],
] as const

const COMING_SOON = [
  ['HEAL HER', '/heal-her'],
  ['X-TREME', '/x-treme'],
  ['SUPPLY DROP', '/supply-drop'],
] as const

const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1280, height: 800 }

function cartLine(id: number, quantity: number) {
  return {
    product: {
      id,
      name: `Product ${id}`,
      slug: `product-${id}`,
      category: 'whisker-oil',
      price: '21.00',
      weight: '2.0',
      image: '/favicon.svg',
    },
    quantity,
  }
}

async function seedCart(page: Page, quantities: number[]) {
  await page.evaluate(
    (lines) => window.localStorage.setItem('cart', JSON.stringify(lines)),
    quantities.map((quantity, index) => cartLine(index + 1, quantity)),
  )
}

function isPhone(page: Page): boolean {
  return (page.viewportSize()?.width ?? 0) < 768
}

/** On a phone the account link and theme toggle live in the hamburger menu. */
async function revealNav(page: Page) {
  if (!isPhone(page)) return
  const menuButton = page.getByRole('button', { name: 'Menu' })
  if ((await menuButton.getAttribute('aria-expanded')) !== 'true') await menuButton.click()
  await expect(page.locator('#mobile-menu')).toBeVisible()
}

async function openShell(page: Page, path = '/') {
  await page.goto(path)
  await waitForIsland(page, 'SiteHeader')
}

async function scrollToY(page: Page, y: number) {
  await page.evaluate((top) => window.scrollTo({ top, behavior: 'instant' }), y)
  await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(y)
}

/** Gives short pages room to scroll: the shell's behaviour must not depend on a page's content. */
async function makePageTall(page: Page) {
  await page.evaluate(() => {
    const main = document.getElementById('main')
    if (main) main.style.minHeight = '4000px'
  })
}

/** Stops the page's (installed) clock just ahead of its current time, so timers only move with runFor. */
async function pauseClock(page: Page) {
  const now = await page.evaluate(() => Date.now())
  await page.clock.pauseAt(now + 1_000)
}

/** Resolves once the page has drawn `count` more frames: a running animation would have moved by then. */
async function framesDrawn(page: Page, count: number) {
  await page.evaluate(
    (frames) =>
      new Promise<void>((resolve) => {
        const next = (left: number) => (left === 0 ? resolve() : requestAnimationFrame(() => next(left - 1)))
        next(frames)
      }),
    count,
  )
}

/** The footer form signs up in place once its script has run (until then the browser would post it). */
async function hydrateFooterForm(page: Page) {
  const email = page.getByRole('textbox', { name: 'Join the newsletter' })
  await email.scrollIntoViewIfNeeded()
  await expect(page.locator('form[data-footer-newsletter]')).toHaveAttribute('data-ready', '')
  return email
}

test.describe('intro splash', () => {
  test('shows on every load, takes no clicks, then fades out', async ({ page }) => {
    await page.goto('/about', { waitUntil: 'commit' })
    const splash = page.locator('.splash')
    await expect(splash).toBeVisible()
    await expect(splash).toHaveAttribute('aria-hidden', 'true')
    await expect(splash).toHaveCSS('pointer-events', 'none')
    const fade = await splash.evaluate((element) => {
      const animation = element
        .getAnimations()
        .find((a) => (a as CSSAnimation).animationName === 'splash-out')
      return animation?.effect?.getTiming().delay
    })
    expect(fade).toBe(1200)

    // Whatever the splash covers gets the click: here the header's home link, while the splash is up.
    const home = page.getByRole('banner').getByRole('link', { name: 'Grit & Whisker' })
    const underPointer = await home.evaluate((link) => {
      const box = link.getBoundingClientRect()
      return link.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2))
    })
    expect(underPointer).toBe(true)
    await home.click()
    await expect(page).toHaveURL(/\/$/)

    // A new load shows it again, and it is gone soon after.
    await expect(page.locator('.splash')).toBeVisible()
    await waitForSplash(page)
  })

  test('is left out for visitors who prefer reduced motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await page.goto('/')
    await expect(page.locator('.splash')).toHaveCSS('display', 'none')
  })
})

test.describe('header on scroll', () => {
  for (const viewport of [PHONE, DESKTOP]) {
    test(`compacts after 50 px, hides scrolling down past 100 px, returns on scroll up (${viewport.width} px)`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport)
      await openShell(page)
      await makePageTall(page)
      const header = page.locator('header.site-header')
      const main = page.locator('#main')

      // The page starts below the fixed bar, not under it.
      const headerBox = await header.boundingBox()
      const mainTop = await main.evaluate((element) =>
        Number.parseFloat(getComputedStyle(element).paddingTop),
      )
      expect(mainTop).toBeGreaterThanOrEqual(headerBox?.height ?? Number.POSITIVE_INFINITY)

      await expect(header).toHaveAttribute('data-compact', 'false')
      await scrollToY(page, 40)
      await expect(header).toHaveAttribute('data-compact', 'false')
      await scrollToY(page, 60)
      await expect(header).toHaveAttribute('data-compact', 'true')
      await expect(header).toHaveAttribute('data-hidden', 'false')
      await scrollToY(page, 95)
      await expect(header).toHaveAttribute('data-hidden', 'false')
      await scrollToY(page, 400)
      await expect(header).toHaveAttribute('data-hidden', 'true')
      await expect(header).not.toBeInViewport()
      await scrollToY(page, 300)
      await expect(header).toHaveAttribute('data-hidden', 'false')
      // Compact, the bar is only nudged up by its top padding.
      await expect(header).toBeInViewport({ ratio: 0.85 })
      await scrollToY(page, 0)
      await expect(header).toHaveAttribute('data-compact', 'false')
    })
  }

  test('comes back when a keyboard user tabs into it while it is hidden', async ({ page }) => {
    await openShell(page)
    await makePageTall(page)
    const header = page.locator('header.site-header')
    await scrollToY(page, 200)
    await scrollToY(page, 500)
    await expect(header).toHaveAttribute('data-hidden', 'true')
    await page.getByRole('banner').getByRole('link', { name: 'Grit & Whisker' }).focus()
    await expect(header).toHaveAttribute('data-hidden', 'false')
  })
})

test.describe('desktop navigation', () => {
  test.use({ viewport: DESKTOP })

  test('shows Shop, About and both dropdowns, and no hamburger', async ({ page }) => {
    await openShell(page)
    const nav = page.getByRole('navigation', { name: 'Main' })
    await expect(nav.getByRole('link', { name: 'Shop' })).toHaveAttribute('href', '/shop')
    await expect(nav.getByRole('link', { name: 'About' })).toHaveAttribute('href', '/about')
    await expect(nav.getByRole('button', { name: 'Toolbox' })).toBeVisible()
    await expect(nav.getByRole('button', { name: 'Coming Soon' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden()
  })

  test('dropdowns open with the mouse and lead to their pages', async ({ page }) => {
    await openShell(page)
    await waitForSplash(page)
    const nav = page.getByRole('navigation', { name: 'Main' })
    const toolbox = nav.getByRole('button', { name: 'Toolbox' })
    await expect(toolbox).toHaveAttribute('aria-expanded', 'false')

    await toolbox.hover()
    await expect(toolbox).toHaveAttribute('aria-expanded', 'true')
    const toolboxList = page.locator(`#${await toolbox.getAttribute('aria-controls')}`)
    for (const [label, href] of TOOLBOX) {
      await expect(toolboxList.getByRole('link', { name: label, exact: true })).toHaveAttribute('href', href)
    }
    // Moving away closes a list opened by hovering.
    await page.mouse.move(5, 500)
    await expect(toolbox).toHaveAttribute('aria-expanded', 'false')
    // A click after hovering pins it open, until a click elsewhere.
    await toolbox.hover()
    await toolbox.click()
    await expect(toolbox).toHaveAttribute('aria-expanded', 'true')
    await page.mouse.move(5, 500)
    await expect(toolbox).toHaveAttribute('aria-expanded', 'true')
    await page.mouse.click(5, 500)
    await expect(toolbox).toHaveAttribute('aria-expanded', 'false')

    const comingSoon = nav.getByRole('button', { name: 'Coming Soon' })
    await comingSoon.hover()
    const comingSoonList = page.locator(`#${await comingSoon.getAttribute('aria-controls')}`)
    for (const [label, href] of COMING_SOON) {
      await expect(comingSoonList.getByRole('link', { name: label, exact: true })).toHaveAttribute(
        'href',
        href,
      )
    }
    await comingSoonList.getByRole('link', { name: 'X-TREME' }).click()
    await expect(page).toHaveURL(/\/x-treme$/)
  })

  test('dropdowns work by keyboard: Enter and Space open, arrows move, Escape closes and returns focus', async ({
    page,
  }) => {
    await openShell(page)
    const nav = page.getByRole('navigation', { name: 'Main' })
    const toolbox = nav.getByRole('button', { name: 'Toolbox' })
    await toolbox.focus()
    await page.keyboard.press('Enter')
    await expect(toolbox).toHaveAttribute('aria-expanded', 'true')
    await expect(nav.getByRole('link', { name: 'Whisker Oil', exact: true })).toBeFocused()
    await page.keyboard.press('ArrowDown')
    await expect(nav.getByRole('link', { name: 'Whisker Tamer', exact: true })).toBeFocused()
    await page.keyboard.press('ArrowUp')
    await page.keyboard.press('ArrowUp')
    await expect(nav.getByRole('link', { name: 'Accessories', exact: true })).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(toolbox).toHaveAttribute('aria-expanded', 'false')
    await expect(toolbox).toBeFocused()

    const comingSoon = nav.getByRole('button', { name: 'Coming Soon' })
    await comingSoon.focus()
    await page.keyboard.press('Space')
    await expect(comingSoon).toHaveAttribute('aria-expanded', 'true')
    await expect(nav.getByRole('link', { name: 'HEAL HER', exact: true })).toBeFocused()
    // Tabbing out of the list closes it.
    for (let i = 0; i < COMING_SOON.length; i++) await page.keyboard.press('Tab')
    await expect(comingSoon).toHaveAttribute('aria-expanded', 'false')
    await expect(nav.getByRole('link', { name: 'About' })).toBeFocused()
    await page.keyboard.press('Shift+Tab')
    await expect(comingSoon).toBeFocused()
    // Arrow keys open it too, and wrap around; Enter follows the link.
    await page.keyboard.press('ArrowDown')
    await expect(nav.getByRole('link', { name: 'HEAL HER', exact: true })).toBeFocused()
    await page.keyboard.press('ArrowUp')
    await expect(nav.getByRole('link', { name: 'SUPPLY DROP', exact: true })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/supply-drop$/)
  })

  test('dropdowns open and close by touch', async ({ browser }) => {
    const context = await browser.newContext({
      viewport: { width: 1024, height: 768 },
      hasTouch: true,
      isMobile: true,
    })
    await context.addInitScript((keys: readonly string[]) => {
      for (const key of keys) window.localStorage.setItem(key, 'true')
    }, WELCOME_FLAGS)
    const page = await context.newPage()
    await openShell(page)
    await waitForSplash(page)
    const toolbox = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Toolbox' })
    await toolbox.tap()
    await expect(toolbox).toHaveAttribute('aria-expanded', 'true')
    await toolbox.tap()
    await expect(toolbox).toHaveAttribute('aria-expanded', 'false')
    await toolbox.tap()
    await page.locator('#main').tap({ position: { x: 20, y: 200 } })
    await expect(toolbox).toHaveAttribute('aria-expanded', 'false')
    await context.close()
  })
})

test.describe('phone menu', () => {
  test.use({ viewport: PHONE })

  test('the hamburger opens a full-width menu with both groups, Account and the cart count', async ({
    page,
    axe,
  }) => {
    await page.goto('/')
    await seedCart(page, [2, 1])
    await openShell(page)
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden()
    const button = page.getByRole('button', { name: 'Menu' })
    await expect(button).toHaveAttribute('aria-expanded', 'false')
    await expect(button).toHaveAttribute('aria-controls', 'mobile-menu')
    // The menu's and search's links for pages without scripts are neither shown nor named where scripts run.
    await expect(page.getByRole('link', { name: 'Menu' })).toHaveCount(0)
    await expect(page.getByRole('link', { name: 'Search the shop' })).toHaveCount(0)
    await expect(page.locator('#mobile-menu')).toBeHidden()

    await button.click()
    await expect(button).toHaveAttribute('aria-expanded', 'true')
    const menu = page.getByRole('navigation', { name: 'Mobile' })
    await expect(menu).toBeVisible()
    expect((await menu.boundingBox())?.width).toBe(PHONE.width)

    await expect(menu.getByRole('link', { name: 'Shop', exact: true })).toHaveAttribute('href', '/shop')
    await expect(menu.getByRole('link', { name: 'About', exact: true })).toHaveAttribute('href', '/about')
    const toolbox = menu.getByRole('list', { name: 'Toolbox' })
    for (const [label, href] of TOOLBOX) {
      await expect(toolbox.getByRole('link', { name: label, exact: true })).toHaveAttribute('href', href)
    }
    const comingSoon = menu.getByRole('list', { name: 'Coming Soon' })
    for (const [label, href] of COMING_SOON) {
      await expect(comingSoon.getByRole('link', { name: label, exact: true })).toHaveAttribute('href', href)
    }
    await expect(menu.getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/login')
    const cart = menu.getByRole('link', { name: 'Cart, 3 items' })
    await expect(cart).toHaveAttribute('href', '/cart')
    await expect(cart).toContainText('3')
    await axe()

    await page.keyboard.press('Escape')
    await expect(menu).toBeHidden()
    await expect(button).toBeFocused()
  })

  test('with an empty cart the menu shows no count, as the header does', async ({ page }) => {
    await page.goto('/')
    await openShell(page)
    await page.getByRole('button', { name: 'Menu' }).click()
    const cart = page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Cart, 0 items' })
    await expect(cart).toBeVisible()
    await expect(cart).toHaveText('Cart')
  })

  test('opening the menu closes the search panel, and both close on hash or history changes', async ({
    page,
  }) => {
    await openShell(page)
    const search = page.getByRole('button', { name: 'Search the shop' })
    const menuButton = page.getByRole('button', { name: 'Menu' })
    await search.click()
    await expect(page.locator('#site-search')).toBeVisible()
    await menuButton.click()
    await expect(page.locator('#site-search')).toBeHidden()
    await expect(search).toHaveAttribute('aria-expanded', 'false')
    await expect(page.locator('#mobile-menu')).toBeVisible()

    await page.evaluate(() => {
      window.location.hash = 'somewhere'
    })
    await expect(page.locator('#mobile-menu')).toBeHidden()
    await expect(menuButton).toHaveAttribute('aria-expanded', 'false')

    await menuButton.click()
    await expect(page.locator('#mobile-menu')).toBeVisible()
    await page.goBack()
    await expect(page.locator('#mobile-menu')).toBeHidden()
  })

  test('a link in the menu navigates to its page', async ({ page }) => {
    await openShell(page)
    await page.getByRole('button', { name: 'Menu' }).click()
    await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'HEAL HER' }).click()
    await expect(page).toHaveURL(/\/heal-her$/)
    await waitForIsland(page, 'SiteHeader')
    await expect(page.locator('#mobile-menu')).toBeHidden()
  })
})

test.describe('search panel', () => {
  test('sends a trimmed query to /shop?search=… and ignores a blank one', async ({ page }) => {
    await openShell(page, '/about')
    const documents: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documents.push(request.url())
    })
    const toggle = page.getByRole('button', { name: 'Search the shop' })
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await toggle.click()
    await expect(toggle).toHaveAttribute('aria-expanded', 'true')
    const input = page.getByRole('searchbox', { name: 'Search products' })
    await expect(input).toBeFocused()
    await expect(input).toHaveAttribute('placeholder', 'Search for products...')
    await expect(page.getByText('Popular: Whisker Oil, Whisker Tamer, Whisker Wash, HEAL HER')).toBeVisible()

    await input.fill('   ')
    await input.press('Enter')
    await page.getByRole('search').getByRole('button', { name: 'Search' }).click()
    await input.fill('  beard oil & balm ')
    await input.press('Enter')
    await page.waitForURL('**/shop?search=*')
    expect(new URL(page.url()).search).toBe(`?search=${encodeURIComponent('beard oil & balm')}`)
    // The blank submits went nowhere: the only page loaded is the search result.
    expect(documents.map((url) => new URL(url).pathname + new URL(url).search)).toEqual([
      `/shop?search=${encodeURIComponent('beard oil & balm')}`,
    ])
  })

  test('Escape closes it and returns focus to its button', async ({ page }) => {
    await openShell(page)
    const toggle = page.getByRole('button', { name: 'Search the shop' })
    await toggle.click()
    await expect(page.getByRole('searchbox', { name: 'Search products' })).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(page.locator('#site-search')).toBeHidden()
    await expect(toggle).toBeFocused()
  })
})

// The header hydrates after the first paint; on a slow phone its buttons are HTML for a second or more. A press
// then is kept and carried out as it hydrates (site/features/header/early-press.ts), never lost.
test.describe('header buttons pressed before the header hydrates', () => {
  /** Opens `path` with every script of the site held back: the header is its static HTML until `deliver()`. */
  async function openBeforeHydration(page: Page, path = '/') {
    const deliver = await delayScript(page, /\/_astro\/[^?]+\.js(\?.*)?$/)
    // Not waiting for 'load': a module script holds that back, and none has arrived yet.
    await page.goto(path, { waitUntil: 'commit' })
    await expect(page.locator('astro-island[opts*=\'"name":"SiteHeader"\']')).toHaveAttribute('ssr', '')
    return deliver
  }

  test.describe('on a phone', () => {
    test.use({ viewport: PHONE })

    test('the menu pressed early shows it took the press, then opens as the header hydrates', async ({
      page,
    }) => {
      const deliver = await openBeforeHydration(page)
      const button = page.getByRole('button', { name: 'Menu' })
      const menu = page.locator('#mobile-menu')
      await button.click()
      await expect(page.locator('html')).toHaveAttribute('data-early-panel', 'menu')
      // Shown as taken: darker than the untouched search button beside it.
      const background = (name: string) =>
        page.getByRole('button', { name }).evaluate((element) => getComputedStyle(element).backgroundColor)
      expect(await background('Menu')).not.toBe(await background('Search the shop'))
      await expect(menu).toBeHidden()

      deliver()
      await expect(menu).toBeVisible()
      await expect(button).toHaveAttribute('aria-expanded', 'true')
      await expect(page.locator('html')).not.toHaveAttribute('data-early-panel')
      // Carried out once: the next press, answered by the hydrated header, closes it.
      await button.click()
      await expect(menu).toBeHidden()
      await expect(button).toHaveAttribute('aria-expanded', 'false')
    })

    test('a second early press takes the first back, and the last panel pressed is the one that opens', async ({
      page,
    }) => {
      const deliver = await openBeforeHydration(page)
      const menuButton = page.getByRole('button', { name: 'Menu' })
      const searchButton = page.getByRole('button', { name: 'Search the shop' })
      await menuButton.click()
      await menuButton.click()
      await expect(page.locator('html')).not.toHaveAttribute('data-early-panel')
      await menuButton.click()
      await searchButton.click()
      await expect(page.locator('html')).toHaveAttribute('data-early-panel', 'search')

      deliver()
      await expect(page.locator('#site-search')).toBeVisible()
      await expect(page.getByRole('searchbox', { name: 'Search products' })).toBeFocused()
      await expect(searchButton).toHaveAttribute('aria-expanded', 'true')
      await expect(page.locator('#mobile-menu')).toBeHidden()
      await expect(menuButton).toHaveAttribute('aria-expanded', 'false')
    })
  })

  test.describe('on a desktop', () => {
    test.use({ viewport: DESKTOP })

    test('the theme switch pressed early switches the theme once, and a dropdown opens', async ({ page }) => {
      await page.emulateMedia({ colorScheme: 'light' })
      const deliver = await openBeforeHydration(page, '/about')
      const toggle = page.getByRole('button', { name: 'Dark theme' })
      await toggle.click()
      await page.getByRole('button', { name: 'Toolbox' }).click()
      await expect(page.locator('html')).toHaveAttribute('data-early-theme', '')
      await expect(page.locator('html')).toHaveAttribute('data-early-panel', 'group:toolbox')
      await expect(page.locator('html')).not.toHaveClass(/\bdark\b/)

      deliver()
      await expect(page.locator('html')).toHaveClass(/\bdark\b/)
      await expect(toggle).toHaveAttribute('aria-pressed', 'true')
      expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark')
      await expect(page.getByRole('button', { name: 'Toolbox' })).toHaveAttribute('aria-expanded', 'true')
      const main = page.getByRole('navigation', { name: 'Main' })
      await expect(main.getByRole('link', { name: 'Whisker Oil', exact: true })).toBeVisible()
      await expect(page.locator('html')).not.toHaveAttribute('data-early-theme')
    })
  })

  test('a press once the header has hydrated is answered by the header alone', async ({ page }) => {
    await openShell(page)
    await page.getByRole('button', { name: 'Search the shop' }).click()
    await expect(page.locator('#site-search')).toBeVisible()
    await expect(page.locator('html')).not.toHaveAttribute('data-early-panel')
  })
})

test.describe('cart badge and account link', () => {
  test('the badge shows the item count, capped at 99+', async ({ page }) => {
    await openShell(page)
    const banner = page.getByRole('banner')
    await expect(banner.getByRole('link', { name: 'Cart, 0 items' })).toBeVisible()
    await expect(banner.locator('.cart-badge')).toBeHidden()

    await seedCart(page, [2, 1])
    await page.reload()
    await waitForIsland(page, 'SiteHeader')
    const cart = banner.getByRole('link', { name: 'Cart, 3 items' })
    await expect(cart).toHaveAttribute('href', '/cart')
    await expect(cart.locator('.cart-badge')).toHaveText('3')

    await seedCart(page, [99])
    await page.reload()
    await expect(banner.getByRole('link', { name: 'Cart, 99 items' }).locator('.cart-badge')).toHaveText('99')

    await seedCart(page, [60, 40, 50])
    await page.reload()
    await expect(banner.getByRole('link', { name: 'Cart, 150 items' }).locator('.cart-badge')).toHaveText(
      '99+',
    )
  })

  test('a visitor who never signed in is not asked about: no sign-in check, no console error', async ({
    page,
  }) => {
    const checks: string[] = []
    const errors: string[] = []
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/auth/user') checks.push(request.url())
    })
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    await openShell(page)
    await page.waitForLoadState('networkidle')
    await revealNav(page)
    await expect(page.getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/login')
    expect(checks).toEqual([])
    expect(errors).toEqual([])
  })

  test('the account link goes to /login when signed out and /profile when signed in', async ({
    page,
    context,
    baseURL,
  }) => {
    // Answered as signed in from the start: the island's attribute says hydrated before React has run the
    // header's effects, so on a busy machine its check can come after the cookie below is set; the shop's
    // own 401 would then take the cookie away again before the reload.
    await page.route('**/api/auth/user', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ id: 1, email: 'a@b.co' }),
      }),
    )
    await openShell(page)
    await revealNav(page)
    await expect(page.getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/login')

    // What the server sets at sign-in beside the HttpOnly session cookie.
    await context.addCookies([{ name: 'signed_in', value: '1', url: baseURL ?? '' }])
    const check = page.waitForRequest('**/api/auth/user')
    await page.reload()
    await check
    await waitForIsland(page, 'SiteHeader')
    await revealNav(page)
    await expect(page.getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/profile')
  })

  test('a sign-in mark whose session has ended reads as signed out, and is dropped', async ({
    page,
    context,
    baseURL,
  }) => {
    await context.addCookies([{ name: 'signed_in', value: '1', url: baseURL ?? '' }])
    const answered = page.waitForResponse('**/api/auth/user')
    await openShell(page)
    expect((await answered).status()).toBe(401)
    await revealNav(page)
    await expect(page.getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/login')
    await expect
      .poll(async () => (await context.cookies()).some((cookie) => cookie.name === 'signed_in'))
      .toBe(false)
  })
})

test.describe('theme', () => {
  /** Records whether the dark class was on <html> at the first animation frame, i.e. before the first paint. */
  async function recordFirstFrame(page: Page) {
    await page.addInitScript(() => {
      requestAnimationFrame(() => {
        ;(window as unknown as { firstFrameDark: boolean }).firstFrameDark =
          document.documentElement.classList.contains('dark')
      })
    })
  }
  /** The recorded value, once the first frame has happened (the load event can come before it). */
  async function firstFrameDark(page: Page): Promise<boolean | undefined> {
    const read = () => page.evaluate(() => (window as unknown as { firstFrameDark?: boolean }).firstFrameDark)
    await expect.poll(read).not.toBeUndefined()
    return read()
  }

  test('a saved theme is applied before the first paint, and beats the system setting', async ({ page }) => {
    await recordFirstFrame(page)
    await page.emulateMedia({ colorScheme: 'light' })
    await page.addInitScript(() => {
      if (!sessionStorage.getItem('seeded')) {
        localStorage.setItem('theme', 'dark')
        sessionStorage.setItem('seeded', '1')
      }
    })
    await page.goto('/')
    expect(await firstFrameDark(page)).toBe(true)

    await page.evaluate(() => localStorage.setItem('theme', 'light'))
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.reload()
    expect(await firstFrameDark(page)).toBe(false)
  })

  test('with nothing saved, the system setting decides', async ({ page }) => {
    await recordFirstFrame(page)
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.goto('/')
    expect(await firstFrameDark(page)).toBe(true)
    await page.emulateMedia({ colorScheme: 'light' })
    await page.reload()
    expect(await firstFrameDark(page)).toBe(false)
  })

  test('the toggle switches the theme and the choice survives a reload', async ({ page }) => {
    await recordFirstFrame(page)
    await page.emulateMedia({ colorScheme: 'light' })
    await openShell(page)
    const html = page.locator('html')
    await expect(html).not.toHaveClass(/\bdark\b/)
    await revealNav(page)
    const toggle = page.getByRole('button', { name: 'Dark theme' })
    await expect(toggle).toHaveAttribute('aria-pressed', 'false')
    await toggle.click()
    await expect(html).toHaveClass(/\bdark\b/)
    await expect(toggle).toHaveAttribute('aria-pressed', 'true')
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark')
    await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#14120f')

    await page.reload()
    expect(await firstFrameDark(page)).toBe(true)
    await waitForIsland(page, 'SiteHeader')
    await revealNav(page)
    await expect(page.getByRole('button', { name: 'Dark theme' })).toHaveAttribute('aria-pressed', 'true')
    await page.getByRole('button', { name: 'Dark theme' }).click()
    await expect(html).not.toHaveClass(/\bdark\b/)
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light')
  })

  for (const theme of ['light', 'dark'] as const) {
    test(`the home page has no accessibility violations in the ${theme} theme`, async ({ page, axe }) => {
      await page.addInitScript((value) => localStorage.setItem('theme', value), theme)
      await openShell(page)
      await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/)
      await axe()
    })
  }
})

test.describe('footer', () => {
  test('has the brand blurb, social, shop, information and legal links', async ({ page }) => {
    await page.goto('/')
    const footer = page.getByRole('contentinfo')
    await expect(footer.getByText('Natural beard, hand and body care for tradesmen.')).toBeVisible()
    for (const network of ['Instagram', 'Facebook', 'YouTube']) {
      await expect(footer.getByRole('link', { name: `Grit & Whisker on ${network}` })).toHaveAttribute(
        'href',
        /^https:\/\//,
      )
    }
    const shop = footer.getByRole('navigation', { name: 'Shop' })
    await expect(shop.getByRole('link', { name: 'All Products' })).toHaveAttribute('href', '/shop')
    await expect(shop.getByRole('link')).toHaveCount(6)
    const info = footer.getByRole('navigation', { name: 'Information' })
    await expect(info.getByRole('link', { name: 'Gift Bundles' })).toHaveAttribute('href', '/gift-bundles')
    await expect(info.getByRole('link', { name: 'Shipping Policy' })).toHaveAttribute(
      'href',
      '/shipping-policy',
    )
    await expect(info.getByRole('link', { name: 'About' })).toHaveAttribute('href', '/about')
    await expect(info.getByRole('link', { name: 'Ingredients' })).toHaveAttribute('href', '/ingredients')
    const legal = footer.getByRole('navigation', { name: 'Legal' })
    await expect(legal.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
      'href',
      '/privacy-policy',
    )
    await expect(legal.getByRole('link', { name: 'Returns Policy' })).toHaveAttribute(
      'href',
      '/returns-policy',
    )
    await expect(legal.getByRole('link', { name: 'Shipping Policy' })).toHaveAttribute(
      'href',
      '/shipping-policy',
    )
    await expect(footer.getByText(`© ${new Date().getFullYear()} Grit & Whisker`)).toBeVisible()
  })

  test('the newsletter form stores the address, shows the alert and clears the field', async ({
    page,
  }, testInfo) => {
    await page.goto('/')
    const email = await hydrateFooterForm(page)
    await expect(email).toHaveAttribute('type', 'email')
    await expect(email).toHaveAttribute('required', '')
    expect(await email.evaluate((input: HTMLInputElement) => input.checkValidity())).toBe(false)

    const address = `crew-${testInfo.project.name}-${Date.now()}@example.com`
    await email.fill(address)
    const request = page.waitForRequest('**/api/newsletter')
    const response = page.waitForResponse('**/api/newsletter')
    // Accept the alert as it opens: it blocks the page, so nothing else (not even the click) can finish first.
    const alerts: string[] = []
    page.on('dialog', async (dialog) => {
      alerts.push(`${dialog.type()}: ${dialog.message()}`)
      await dialog.accept()
    })
    await page.getByRole('contentinfo').getByRole('button', { name: 'Subscribe' }).click()
    expect((await request).postDataJSON()).toEqual({ email: address, source: 'footer' })
    expect((await response).status()).toBe(200)
    await expect.poll(() => alerts).toEqual([`alert: Subscribed with email: ${address}`])
    await expect(email).toHaveValue('')
  })

  test('back to top returns to the top of the page', async ({ page }) => {
    await openShell(page)
    await makePageTall(page)
    const backToTop = page.getByRole('link', { name: 'Back to top' })
    await backToTop.scrollIntoViewIfNeeded()
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000)
    await backToTop.click()
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0)
    await expect(page.locator('header.site-header')).toBeInViewport()
  })
})

test.describe('toasts', () => {
  test('a refused footer sign-up shows the server error as a red toast that leaves after 5 s', async ({
    page,
  }) => {
    await page.clock.install()
    await page.goto('/')
    const email = await hydrateFooterForm(page)
    await waitForIsland(page, 'ToastViewport')
    await pauseClock(page)

    // The browser accepts this address; the shop's own check refuses it (no dot in the domain).
    await email.fill('crew@localhost')
    await page.getByRole('contentinfo').getByRole('button', { name: 'Subscribe' }).click()
    const region = page.getByRole('region', { name: 'Notification' })
    const toast = region.getByRole('listitem')
    await expect(toast).toBeVisible()
    await expect(toast).toContainText('Could not subscribe')
    await expect(toast).toContainText('Please enter a valid e-mail address')
    await expect(region.getByRole('alert')).toContainText('Please enter a valid e-mail address')
    await expect(email).toHaveValue('crew@localhost')
    await page.mouse.move(1, 1)

    const danger = await page.evaluate(() => {
      const probe = document.createElement('div')
      probe.style.color = 'var(--c-danger)'
      document.body.append(probe)
      const color = getComputedStyle(probe).color
      probe.remove()
      return color
    })
    await expect(toast).toHaveCSS('background-color', danger)

    const box = await toast.boundingBox()
    const viewport = page.viewportSize()
    if (!box || !viewport) throw new Error('no layout')
    expect(box.width).toBeLessThanOrEqual(420)
    if (isPhone(page)) {
      expect(box.y).toBeLessThan(viewport.height / 3)
    } else {
      expect(box.y + box.height).toBeGreaterThan(viewport.height - 60)
      expect(box.x + box.width).toBeGreaterThan(viewport.width - 60)
    }

    await page.clock.runFor(4_800)
    await expect(toast).toBeVisible()
    await page.clock.runFor(300)
    await expect(toast).toHaveCount(0)
  })

  test('one at a time, F8 reaches them, a swipe right dismisses, the close button too', async ({ page }) => {
    let calls = 0
    await page.route('**/api/newsletter', (route) => {
      calls += 1
      return route.fulfill({
        status: 429,
        contentType: 'application/json',
        body: JSON.stringify({ error: `Too many sign-ups from here (${calls}).` }),
      })
    })
    // Time stands still here, so the 5 s timeout cannot take a toast away in the middle of a step.
    await page.clock.install()
    await page.goto('/')
    const email = await hydrateFooterForm(page)
    await waitForIsland(page, 'ToastViewport')
    await pauseClock(page)
    const subscribe = page.getByRole('contentinfo').getByRole('button', { name: 'Subscribe' })
    const region = page.getByRole('region', { name: 'Notification' })

    await email.fill('one@example.com')
    await subscribe.click()
    await expect(region.getByRole('listitem')).toContainText('(1)')
    await subscribe.click()
    await expect(region.getByRole('listitem')).toContainText('(2)')
    await expect(region.getByRole('listitem')).toHaveCount(1)

    await page.keyboard.press('F8')
    await expect(region).toBeFocused()

    // A short drag springs back; 50 px or more to the right dismisses.
    const toast = region.getByRole('listitem')
    const box = await toast.boundingBox()
    if (!box) throw new Error('no toast')
    const y = box.y + box.height / 2
    const x = box.x + 20
    await page.mouse.move(x, y)
    await page.mouse.down()
    await page.mouse.move(x + 30, y, { steps: 5 })
    await page.mouse.up()
    await expect(toast).toBeVisible()
    await page.mouse.move(x, y)
    await page.mouse.down()
    await page.mouse.move(x + 70, y, { steps: 5 })
    await page.mouse.up()
    await expect(region.getByRole('listitem')).toHaveCount(0)

    await subscribe.click()
    await expect(region.getByRole('listitem')).toContainText('(3)')
    await region.getByRole('button', { name: 'Close notification' }).click()
    await expect(region.getByRole('listitem')).toHaveCount(0)
  })

  test('a toast waits while the pointer rests on it, and passes axe', async ({ page, axe }) => {
    await page.route('**/api/newsletter', (route) =>
      route.fulfill({
        status: 422,
        contentType: 'application/json',
        body: '{"error":"Please check the address."}',
      }),
    )
    // The page's clock runs as usual until paused; then its 5 s pass only when the test says so.
    await page.clock.install()
    await page.goto('/')
    const email = await hydrateFooterForm(page)
    await waitForIsland(page, 'ToastViewport')
    await email.fill('x@example.com')
    await page.getByRole('contentinfo').getByRole('button', { name: 'Subscribe' }).click()
    const toast = page.getByRole('region', { name: 'Notification' }).getByRole('listitem')
    await toast.hover()
    await axe()
    await pauseClock(page)
    await page.clock.runFor(5_500)
    await expect(toast).toBeVisible()
    await page.mouse.move(1, 1)
    await page.clock.runFor(5_100)
    await expect(toast).toHaveCount(0)
  })

  test('the default style is green where errors are red', async ({ page }) => {
    await page.route('**/api/newsletter', (route) =>
      route.fulfill({ status: 422, contentType: 'application/json', body: '{"error":"No."}' }),
    )
    await page.goto('/')
    const email = await hydrateFooterForm(page)
    await email.fill('x@example.com')
    await page.getByRole('contentinfo').getByRole('button', { name: 'Subscribe' }).click()
    const toast = page.getByRole('region', { name: 'Notification' }).getByRole('listitem')
    await expect(toast).toHaveAttribute('data-variant', 'error')
    const colors = await toast.evaluate((element) => {
      const probe = document.createElement('div')
      probe.style.color = 'var(--c-success)'
      document.body.append(probe)
      const success = getComputedStyle(probe).color
      probe.remove()
      element.setAttribute('data-variant', 'default')
      return { success, shown: getComputedStyle(element).backgroundColor }
    })
    expect(colors.shown).toBe(colors.success)
  })
})

test.describe('welcome popup', () => {
  test.use({ welcomePopup: true })

  const popup = (page: Page) => page.getByRole('complementary', { name: 'Welcome to Grit & Whisker' })
  const pill = (page: Page) => page.getByRole('complementary', { name: 'Welcome offer' })

  test('shows on the first visit only, and sets the visit flags', async ({ page }) => {
    await page.goto('/')
    await expect(popup(page)).toBeVisible()
    for (const key of WELCOME_FLAGS) {
      expect(await page.evaluate((name) => localStorage.getItem(name), key)).not.toBeNull()
    }
    await page.reload()
    await waitForIsland(page, 'WelcomePopup')
    await expect(popup(page)).toHaveCount(0)
    await expect(pill(page)).toHaveCount(0)
  })

  test('a visit flag set beforehand keeps it away', async ({ page }) => {
    await page.addInitScript((key) => localStorage.setItem(key, 'true'), WELCOME_FLAGS[0])
    await page.goto('/')
    await waitForIsland(page, 'WelcomePopup')
    await expect(popup(page)).toHaveCount(0)
  })

  test('minimises itself to a pill after 10 s', async ({ page }) => {
    await page.clock.install()
    await page.goto('/')
    await expect(popup(page)).toBeVisible()
    await pauseClock(page)
    await page.clock.runFor(5_000)
    await expect(popup(page)).toBeVisible()
    await page.clock.runFor(5_100)
    await expect(popup(page)).toHaveCount(0)
    await expect(pill(page)).toBeVisible()
  })

  test('minimise, expand and close', async ({ page, axe }) => {
    await page.goto('/')
    await expect(popup(page)).toBeVisible()
    await axe()
    await page.getByRole('button', { name: 'Minimise welcome message' }).click()
    await expect(popup(page)).toHaveCount(0)
    const expand = pill(page).getByRole('button', { name: 'Welcome, crew' })
    await expect(expand).toBeFocused()
    await axe()
    await expand.click()
    await expect(popup(page)).toBeVisible()
    await expect(popup(page).getByRole('heading', { name: 'Welcome to Grit & Whisker' })).toBeFocused()
    await popup(page).getByRole('button', { name: 'Close welcome message' }).click()
    await expect(popup(page)).toHaveCount(0)
    await expect(pill(page)).toHaveCount(0)
  })

  test('keyboard focus on the page is scrolled above it, never left under it', async ({ page }) => {
    await page.goto('/')
    await expect(popup(page)).toBeVisible()
    const covered: string[] = []
    for (let press = 0; press < 40; press++) {
      await page.keyboard.press('Tab')
      const under = await page.evaluate(() => {
        const active = document.activeElement
        const aside = document.querySelector('.welcome-popup, .welcome-pill')
        if (!(active instanceof HTMLElement) || !aside || aside.contains(active)) return null
        const a = active.getBoundingClientRect()
        const p = aside.getBoundingClientRect()
        // Hidden: the middle of its top edge is under the popup (a region taller than the room left above
        // the popup may reach under it, with its start in view; a control whose edge only touches it is seen).
        const x = (a.left + a.right) / 2
        const hidden = a.top >= p.top && a.top < p.bottom && x > p.left && x < p.right
        return hidden ? `${active.tagName} ${(active.textContent ?? '').trim().slice(0, 40)}` : null
      })
      if (under) covered.push(under)
    }
    expect(covered).toEqual([])
  })

  test('is not a focus trap: Tab leaves it', async ({ page }) => {
    await page.goto('/')
    const learnMore = popup(page).getByRole('link', { name: 'Learn More' })
    await learnMore.focus()
    await page.keyboard.press('Tab')
    expect(await popup(page).evaluate((element) => element.contains(document.activeElement))).toBe(false)
  })

  test("'Create account' closes it and goes to /signup", async ({ page }) => {
    await page.goto('/')
    await popup(page).getByRole('link', { name: 'Create account' }).click()
    await expect(page).toHaveURL(/\/signup$/)
    await waitForIsland(page, 'WelcomePopup')
    await expect(popup(page)).toHaveCount(0)
  })

  test("'Learn More' closes it and goes to /shop", async ({ page }) => {
    await page.goto('/')
    await popup(page).getByRole('link', { name: 'Learn More' }).click()
    await expect(page).toHaveURL(/\/shop$/)
    await waitForIsland(page, 'WelcomePopup')
    await expect(popup(page)).toHaveCount(0)
  })

  test('waits off the cart page, where it could cover the checkout buttons', async ({ page }) => {
    await page.goto('/cart')
    await waitForIsland(page, 'WelcomePopup')
    await expect(popup(page)).toHaveCount(0)
    expect(await page.evaluate((key) => localStorage.getItem(key), WELCOME_FLAGS[0])).toBeNull()
    await page.goto('/')
    await expect(popup(page)).toBeVisible()
  })
})

test.describe('research ticker', () => {
  test('reads as one list of nine claims and has a working pause button', async ({ page }) => {
    await page.goto('/')
    const ticker = page.getByRole('region', { name: 'What the research says' })
    await ticker.scrollIntoViewIfNeeded()
    await expect(ticker.getByRole('list')).toHaveCount(1)
    await expect(ticker.getByRole('listitem')).toHaveCount(9)
    await expect(ticker.locator('ul[aria-hidden="true"] li')).toHaveCount(9)

    const track = ticker.locator('.ticker-track')
    await page.mouse.move(1, 1)
    await expect(track).toHaveCSS('animation-play-state', 'running')
    await ticker.getByRole('button', { name: 'Pause research ticker' }).click()
    await page.mouse.move(1, 1)
    await expect(track).toHaveCSS('animation-play-state', 'paused')
    const transform = () => track.evaluate((element) => getComputedStyle(element).transform)
    const paused = await transform()
    await framesDrawn(page, 10)
    expect(await transform()).toBe(paused)

    await ticker.getByRole('button', { name: 'Play research ticker' }).click()
    await page.mouse.move(1, 1)
    await expect(track).toHaveCSS('animation-play-state', 'running')
    await expect(ticker.getByRole('button', { name: 'Pause research ticker' })).toBeFocused()
    // The same frames move it once it plays: waiting for them is waiting long enough.
    const playing = await transform()
    await framesDrawn(page, 10)
    expect(await transform()).not.toBe(playing)
  })

  test('rests out of view and goes on from where it was when scrolled back', async ({ page }) => {
    await page.goto('/')
    const ticker = page.getByRole('region', { name: 'What the research says' })
    const track = ticker.locator('.ticker-track')
    await expect(ticker).toHaveAttribute('data-ready', '')
    // Below the fold of the home page: the visitor's choice is still 'playing', the track is not moving.
    await expect(ticker).not.toBeInViewport()
    await expect(ticker.getByRole('button', { name: 'Pause research ticker' })).toBeAttached()
    await expect(track).toHaveCSS('animation-play-state', 'paused')

    await ticker.scrollIntoViewIfNeeded()
    await page.mouse.move(1, 1)
    await expect(track).toHaveCSS('animation-play-state', 'running')
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }))
    await expect(track).toHaveCSS('animation-play-state', 'paused')
    const rested = await track.evaluate((element) => getComputedStyle(element).transform)
    await framesDrawn(page, 10)
    expect(await track.evaluate((element) => getComputedStyle(element).transform)).toBe(rested)
  })

  test('starts paused for visitors who prefer reduced motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await page.goto('/')
    const ticker = page.getByRole('region', { name: 'What the research says' })
    await expect(ticker.getByRole('button', { name: 'Play research ticker' })).toBeVisible()
    await expect(ticker.locator('.ticker-track')).toHaveCSS('animation-play-state', 'paused')
  })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the header and footer still render and link', async ({ page }) => {
    await page.goto('/')
    const banner = page.getByRole('banner')
    await expect(banner.getByRole('link', { name: 'Grit & Whisker' })).toHaveAttribute('href', '/')
    await expect(banner.getByRole('link', { name: /^Cart/ })).toHaveAttribute('href', '/cart')
    if (!isPhone(page)) {
      const nav = page.getByRole('navigation', { name: 'Main' })
      await expect(nav.getByRole('link', { name: 'Shop' })).toBeVisible()
      await expect(nav.getByRole('link', { name: 'About' })).toBeVisible()
      const toolbox = nav.getByRole('button', { name: 'Toolbox' })
      const whiskerOil = nav.getByRole('link', { name: 'Whisker Oil' })
      await expect(toolbox).toBeVisible()
      await expect(whiskerOil).toBeHidden()
      // Without scripts a dropdown opens while the keyboard's focus or the pointer is inside it.
      await toolbox.focus()
      await expect(whiskerOil).toBeVisible()
      await page.keyboard.press('Tab')
      await expect(whiskerOil).toBeFocused()
      await page.mouse.move(5, 600)
      await page.keyboard.press('Shift+Tab')
      await page.keyboard.press('Shift+Tab')
      await expect(whiskerOil).toBeHidden()
      await nav.getByRole('button', { name: 'Coming Soon' }).hover()
      await nav.getByRole('link', { name: 'HEAL HER' }).click()
      await expect(page).toHaveURL(/\/heal-her\/?$/)
      await page.goBack()
    } else {
      // The menu button cannot work without scripts; a link in its place opens the same menu (:target).
      await expect(banner.getByRole('button', { name: 'Menu' })).toBeHidden()
      const menu = page.getByRole('navigation', { name: 'Mobile' })
      await expect(menu).toBeHidden()
      await banner.getByRole('link', { name: 'Menu' }).click()
      await expect(menu.getByRole('link', { name: 'Shop', exact: true })).toBeVisible()
      // The theme switch needs scripts, so it is not offered without them.
      await expect(menu.getByRole('button')).toHaveCount(0)
      await menu.getByRole('link', { name: 'About', exact: true }).click()
      await expect(page).toHaveURL(/\/about\/?$/)
      await page.goBack()
      // The search button cannot work either; its link opens the same search field, a plain GET form.
      await expect(banner.getByRole('button', { name: 'Search the shop' })).toBeHidden()
      const field = banner.getByRole('searchbox', { name: 'Search products' })
      await expect(field).toBeHidden()
      await banner.getByRole('link', { name: 'Search the shop' }).click()
      await field.fill('balm')
      await field.press('Enter')
      await expect(page).toHaveURL(/\/shop\/?\?search=balm$/)
      await page.goBack()
    }
    const footer = page.getByRole('contentinfo')
    await expect(footer.getByRole('navigation', { name: 'Shop' }).getByRole('link')).toHaveCount(6)
    await expect(footer.getByRole('link', { name: 'Privacy Policy' })).toBeVisible()
    await expect(footer.getByRole('textbox', { name: 'Join the newsletter' })).toBeVisible()
    await expect(
      page.getByRole('region', { name: 'What the research says' }).getByRole('listitem'),
    ).toHaveCount(9)
  })
})

test.describe('security and stability', () => {
  test('pages run their scripts and styles under the CSP without a single violation', async ({ page }) => {
    const problems: string[] = []
    page.on('console', (message) => {
      if (/content security policy/i.test(message.text())) problems.push(message.text())
    })
    await page.addInitScript(() => {
      const violations: string[] = []
      ;(window as unknown as { cspViolations: string[] }).cspViolations = violations
      document.addEventListener('securitypolicyviolation', (event) => {
        violations.push(`${event.violatedDirective} ${event.blockedURI}`)
      })
    })
    for (const path of ['/', '/about', '/no-such-page']) {
      await page.goto(path)
      const csp = await page.locator('meta[http-equiv="content-security-policy"]').getAttribute('content')
      expect(csp).toContain("script-src 'self'")
      expect(csp).not.toContain('unsafe-inline')
      // Anything a page loads or calls comes from the shop's own origin.
      expect(csp).toMatch(/(^|;)\s*default-src 'self'\s*;/)
      expect(csp).toMatch(/(^|;)\s*connect-src 'self'\s*;/)
      // Scripts ran: the header hydrated and the ticker started; styles applied: the header is fixed.
      await waitForIsland(page, 'SiteHeader')
      await expect(page.locator('[data-ticker]')).toHaveAttribute('data-ready', '')
      await expect(page.locator('header.site-header')).toHaveCSS('position', 'fixed')
      // No render-blocking script: every external script is a module (deferred) or async.
      const blocking = await page.evaluate(() =>
        Array.from(document.querySelectorAll('script[src]'))
          .filter((script) => script.getAttribute('type') !== 'module' && !script.hasAttribute('async'))
          .map((script) => script.getAttribute('src')),
      )
      expect(blocking).toEqual([])
      const violations = await page.evaluate(
        () => (window as unknown as { cspViolations?: string[] }).cspViolations ?? [],
      )
      expect(violations, `CSP violations on ${path}`).toEqual([])
    }
    expect(problems).toEqual([])
  })

  test('the shell does not shift the layout while it loads (CLS ≤ 0.01)', async ({ page }) => {
    await watchLayoutShifts(page)
    await page.goto('/')
    await waitForIsland(page, 'SiteHeader')
    await waitForIsland(page, 'ToastViewport')
    await waitForSplash(page)
    const total = await layoutShiftTotal(page)
    expect(total).toBeLessThanOrEqual(0.01)
  })
})
