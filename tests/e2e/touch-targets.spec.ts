// Touch targets on a phone (docs/product.md#every-page): at 390 px wide, every control a shopper taps is
// at least 44 × 44 CSS px, the size WCAG 2.5.5 asks for and Apple's and Google's guides recommend, so a
// thumb does not miss it or press its neighbour. The named controls were once smaller.
import type { Locator } from '@playwright/test'
import { input } from './support/accounts'
import { expect, test } from './support/fixtures'

const MIN = 44

test.beforeEach(({ isMobile }) => {
  test.skip(!isMobile, 'a phone-sized question: the phone project is 390 px wide')
  test.setTimeout(90_000)
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

function tooSmall(measured: Record<string, string>): string[] {
  return Object.entries(measured)
    .filter(([, size]) => {
      const [width, height] = size.split(' × ').map(Number)
      return !(Number(width) >= MIN && Number(height) >= MIN)
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
