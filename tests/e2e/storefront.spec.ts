// Storefront paths: home toolbox, shop filters and search, product page (carousel, tabs, add to cart),
// the product 404 page and the old /product/{id} links. Runs on the phone and desktop projects.
import type { Page } from '@playwright/test'
import { expect, test } from './support/fixtures'

function toast(page: Page) {
  return page.getByRole('region', { name: 'Notification' }).getByRole('listitem')
}

/** The names of the product cards a shop or home section shows right now. */
function visibleCardNames(page: Page, scope = page.locator('main')) {
  return scope
    .locator('[data-product-card]:visible h2, [data-product-card]:visible h3')
    .allInnerTexts()
    .then((names) => names.map((name) => name.trim()))
}

test.describe('home', () => {
  test('the toolbox leads with Workforce Repair and filters by tab, by mouse and keyboard', async ({
    page,
    axe,
  }) => {
    await page.goto('/')
    await expect(page.getByRole('link', { name: 'Shop Now' })).toHaveAttribute('href', '/shop')
    await expect(page.getByRole('link', { name: 'Our Ingredients' })).toHaveAttribute('href', '/ingredients')

    const tablist = page.getByRole('tablist', { name: 'Product categories' })
    await expect(tablist.getByRole('tab')).toHaveText([
      'All Products',
      'Whisker Oil',
      'Beard Balm',
      'Beard Wash',
      'Accessories',
      'Workforce Repair',
    ])
    const all = page.getByRole('tab', { name: 'All Products' })
    await expect(all).toHaveAttribute('aria-selected', 'true')
    const allPanel = page.getByRole('tabpanel', { name: 'All Products' })
    // Spec: the Workforce Repair product is featured whenever it is in the list; up to 4 others beside it.
    await expect(allPanel.locator('[data-featured] h3')).toHaveText('Workforce Repair Original Grit')
    await expect(allPanel.getByRole('listitem')).toHaveCount(4)
    await axe()

    // The tabs' module loads after the first paint; a press before it answers selects nothing.
    await expect(page.locator('[data-tabs]')).toHaveAttribute('data-ready', '')
    await page.getByRole('tab', { name: 'Beard Wash' }).click()
    const washPanel = page.getByRole('tabpanel', { name: 'Beard Wash' })
    await expect(washPanel).toBeVisible()
    await expect(allPanel).toBeHidden()
    await expect(washPanel.locator('[data-featured] h3')).toHaveText('Alpine Wash')
    await expect(washPanel.getByRole('listitem')).toHaveCount(0)

    // Arrow keys move along the tabs and select them; only the selected tab is in the tab order.
    await page.getByRole('tab', { name: 'Beard Wash' }).focus()
    await page.keyboard.press('ArrowRight')
    const accessories = page.getByRole('tab', { name: 'Accessories' })
    await expect(accessories).toBeFocused()
    await expect(accessories).toHaveAttribute('aria-selected', 'true')
    await expect(accessories).toHaveAttribute('tabindex', '0')
    await expect(page.getByRole('tab', { name: 'Beard Wash' })).toHaveAttribute('tabindex', '-1')
    await expect(
      page.getByRole('tabpanel', { name: 'Accessories' }).locator('[data-featured] h3'),
    ).toHaveText('The Brush & Comb Duo')
    await page.keyboard.press('Home')
    await expect(all).toBeFocused()
    await expect(allPanel).toBeVisible()

    await expect(page.getByRole('link', { name: 'View All Products' })).toHaveAttribute('href', '/shop')
    for (const [name, href] of [
      ['X-TREME Repair', '/x-treme'],
      ['Original Grit', '/shop'],
      ['Heal Her', '/heal-her'],
    ]) {
      await expect(page.getByRole('link', { name: new RegExp(`^${name}`) })).toHaveAttribute(
        'href',
        href as string,
      )
    }
    await expect(page.getByRole('heading', { name: 'Join The Crew' })).toBeVisible()
  })
})

test.describe('shop', () => {
  test('lists every product and filters by category from the sidebar', async ({ page, axe, isMobile }) => {
    await page.goto('/shop')
    await expect(page.getByRole('heading', { level: 1, name: 'Shop Collection' })).toBeVisible()
    await expect.poll(() => visibleCardNames(page)).toHaveLength(5)
    await axe()

    const categories = page.getByRole('navigation', { name: 'Categories' })
    if (isMobile) {
      // On phones the sidebar folds away behind 'Filter Products'.
      const toggle = page.getByRole('button', { name: 'Filter Products' })
      await expect(categories).toBeHidden()
      await expect(toggle).toHaveAttribute('aria-expanded', 'false')
      await expect(toggle).toBeEnabled() // disabled until its module, which loads after the first paint, runs
      await toggle.click()
      await expect(toggle).toHaveAttribute('aria-expanded', 'true')
    }
    await expect(categories.getByRole('link')).toHaveCount(6)
    await categories.getByRole('link', { name: 'Beard Wash' }).click()
    await expect(page).toHaveURL(/\?category=whisker-wash$/)
    await expect.poll(() => visibleCardNames(page)).toEqual(['Alpine Wash'])
    await expect(categories.getByRole('link', { name: 'Beard Wash' })).toHaveAttribute('aria-current', 'page')

    await categories.getByRole('link', { name: 'All Products' }).click()
    await expect.poll(() => visibleCardNames(page)).toHaveLength(5)
  })

  test('preselects the category from the link, legacy repair included', async ({ page }) => {
    await page.goto('/shop?category=repair')
    await expect.poll(() => visibleCardNames(page)).toEqual(['Workforce Repair Original Grit'])
    await page.goto('/shop?category=accessories')
    await expect.poll(() => visibleCardNames(page)).toEqual(['The Brush & Comb Duo'])
  })

  test('searches from ?search= with synonyms, and says when nothing matches', async ({ page, axe }) => {
    await page.goto('/shop?search=comb')
    await expect.poll(() => visibleCardNames(page)).toEqual(['The Brush & Comb Duo'])
    await expect(page.getByText('Results for “comb”')).toBeVisible()

    await page.goto('/shop?search=shampoo')
    await expect.poll(() => visibleCardNames(page)).toEqual(['Alpine Wash'])
    await page.getByRole('button', { name: 'Clear search' }).click()
    await expect.poll(() => visibleCardNames(page)).toHaveLength(5)

    await page.goto('/shop?search=chainsaw')
    await expect(page.getByText('No products found in this category.')).toBeVisible()
    await expect.poll(() => visibleCardNames(page)).toEqual([])
    await axe()
  })

  test('a card adds its product without a scent, sold as its first: the line the product page adds that scent to', async ({
    page,
  }) => {
    await page.goto('/shop')
    await page.getByRole('button', { name: 'Add to Cart: Alpine Wash' }).click()
    await expect(toast(page)).toContainText('Alpine Wash')
    await expect(toast(page)).toContainText('Item successfully added to your cart')
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('cart') ?? '[]'))
    expect(saved).toEqual([
      { product: expect.objectContaining({ id: 3, name: 'Alpine Wash', price: '18.00' }), quantity: 1 },
    ])
    // The product page's first scent, chosen to begin with: the same line, now 2.
    await page.goto('/products/whisker-wash')
    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click()
    await expect(toast(page)).toContainText('Alpine Wash')
    const after = await page.evaluate(() => JSON.parse(localStorage.getItem('cart') ?? '[]'))
    expect(after).toEqual([{ product: expect.objectContaining({ id: 3 }), quantity: 2 }])
  })
})

test.describe('product page', () => {
  test('shows the product and its carousel, moved by arrows and dots, wrapping round', async ({
    page,
    axe,
  }) => {
    // Reduced motion keeps the slideshow still, so only the clicks below move it.
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await page.goto('/products/repair')
    await expect(
      page.getByRole('heading', { level: 1, name: 'Workforce Repair Original Grit' }),
    ).toBeVisible()
    await expect(page.getByText('Rated 4.9 out of 5').first()).toBeAttached()
    await expect(page.getByText('$13.00').first()).toBeVisible()
    await expect(page.getByText('Best Seller').first()).toBeVisible()
    await axe()

    const carousel = page.getByRole('region', { name: 'Workforce Repair Original Grit images' })
    const slide = (n: number) => carousel.getByRole('group', { name: `${n} of 3` })
    await expect(slide(1)).toBeVisible()
    await expect(carousel.getByRole('button', { name: 'Play slideshow' })).toBeVisible()
    await carousel.getByRole('button', { name: 'Next image' }).click()
    await expect(slide(2)).toBeVisible()
    await expect(slide(1)).toBeHidden()
    await expect(carousel.getByRole('button', { name: 'Show image 2' })).toHaveAttribute(
      'aria-current',
      'true',
    )
    await carousel.getByRole('button', { name: 'Show image 1' }).click()
    await expect(slide(1)).toBeVisible()
    await carousel.getByRole('button', { name: 'Previous image' }).click()
    await expect(slide(3)).toBeVisible()
    await carousel.getByRole('button', { name: 'Next image' }).click()
    await expect(slide(1)).toBeVisible()

    const related = page.getByRole('region', { name: 'You May Also Like' })
    await expect(related.locator('[data-product-card]')).toHaveCount(3)
    await expect(related.getByRole('link', { name: /^View All/ })).toHaveAttribute(
      'href',
      '/shop?category=workforce-repair',
    )
  })

  test('the carousel advances every 5 s until paused', async ({ page }) => {
    await page.clock.install()
    await page.goto('/products/repair')
    const carousel = page.getByRole('region', { name: 'Workforce Repair Original Grit images' })
    await expect(carousel.getByRole('group', { name: '1 of 3' })).toBeVisible()
    await page.clock.runFor(5_000)
    await expect(carousel.getByRole('group', { name: '2 of 3' })).toBeVisible()
    await carousel.getByRole('button', { name: 'Pause slideshow' }).click()
    await page.mouse.move(0, 0) // away from the carousel, so only the button holds it still
    await carousel.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    await page.clock.runFor(15_000)
    await expect(carousel.getByRole('group', { name: '2 of 3' })).toBeVisible()
    await expect(carousel.getByRole('button', { name: 'Play slideshow' })).toHaveAttribute(
      'aria-pressed',
      'true',
    )
  })

  test('the information tabs work from the keyboard', async ({ page }) => {
    await page.goto('/products/whisker-oil')
    const details = page.getByRole('tab', { name: 'Details' })
    await expect(details).toHaveAttribute('aria-selected', 'true')
    // The tabs' module loads after the first paint; a key pressed before it answers selects nothing.
    await expect(page.locator('[data-tabs]')).toHaveAttribute('data-ready', '')
    await details.focus()
    await page.keyboard.press('ArrowRight')
    const ingredients = page.getByRole('tab', { name: 'Ingredients' })
    await expect(ingredients).toBeFocused()
    await expect(page.getByRole('tabpanel', { name: 'Ingredients' })).toContainText('Jojoba Seed Oil')
    await expect(page.getByRole('tabpanel', { name: 'Details' })).toBeHidden()
    await page.keyboard.press('End')
    await expect(page.getByRole('tab', { name: 'Benefits' })).toBeFocused()
    await expect(page.getByRole('tabpanel', { name: 'Benefits' })).toBeVisible()
    await page.keyboard.press('ArrowRight')
    await expect(details).toBeFocused()
    await expect(page.getByRole('tabpanel', { name: 'Details' })).toBeVisible()
  })

  test('adds the chosen quantity and scent, with a closable notification', async ({ page, axe }) => {
    await page.goto('/products/whisker-oil')
    await page
      .getByRole('group', { name: 'Available Scents' })
      .getByLabel(/Unscented/)
      .check()
    const quantity = page.getByLabel('Quantity', { exact: true })
    await page.getByRole('button', { name: 'Decrease quantity' }).click()
    await expect(quantity).toHaveValue('1') // never below 1
    await page.getByRole('button', { name: 'Increase quantity' }).click()
    await expect(quantity).toHaveValue('2')
    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click()

    await expect(toast(page)).toContainText('Hammered Citrus')
    await expect(toast(page)).toContainText('Item successfully added to your cart')
    await toast(page).getByRole('button', { name: 'Close notification' }).click()
    await expect(toast(page)).toHaveCount(0)
    await expect(page.getByRole('link', { name: 'Cart, 2 items' })).toBeVisible()
    await axe()

    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('cart') ?? '[]'))
    expect(saved).toEqual([
      {
        product: expect.objectContaining({ id: 1, slug: 'whisker-oil' }),
        quantity: 2,
        selectedVariant: 'Unscented',
      },
    ])
  })

  test('the notification hides by itself after 3 seconds', async ({ page }) => {
    await page.goto('/products/whisker-wash')
    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click()
    await expect(toast(page)).toContainText('Alpine Wash')
    await expect(toast(page)).toHaveCount(0, { timeout: 4_500 })
  })

  test('an unknown product answers 404 with the product-not-found page', async ({ page, axe }) => {
    const response = await page.goto('/products/nope')
    expect(response?.status()).toBe(404)
    await expect(page.getByRole('heading', { level: 1, name: 'Product not found' })).toBeVisible()
    await expect(
      page.getByText("The product you're looking for does not exist or has been removed."),
    ).toBeVisible()
    await expect(page.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/')
    await axe()
  })

  test('old /product/{id} links land on the product page', async ({ page }) => {
    await page.goto('/product/1')
    await expect(page).toHaveURL(/\/products\/whisker-oil$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Hammered Citrus' })).toBeVisible()
  })
})
