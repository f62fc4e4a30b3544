// Proving the e-mail address from the shopper's side: sign-up sends a link, the link's page confirms it
// without the token going anywhere else (no referrer, no other site, gone from the address bar), and the
// account page shows the state and sends the link again. And what an unproved address costs: whoever
// registered it first is shut out when its owner signs in with Google (the local OpenID provider of
// playwright.config.ts).
import type { Page, Request } from '@playwright/test'
import { input, PASSWORD, register, signUp } from './support/accounts'
import { expect, test, waitForIsland } from './support/fixtures'
import { OUTBOX, outboxMessagesFor } from './support/outbox'

function uniqueEmail(project: string): string {
  return `verify.${project}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`
}

/** The newest verification link e-mailed to `email`, as a path with its query. */
async function verificationLink(email: string): Promise<string> {
  let link: string | undefined
  await expect
    .poll(
      () => {
        const texts = outboxMessagesFor(email).map((message) => message.text)
        link = texts
          .map((text) => /https?:\/\/\S+(\/verify-email\?token=[a-z2-7]{32})/.exec(text)?.[1])
          .filter(Boolean)
          .at(-1)
        return link
      },
      { timeout: 20_000, message: `a verification e-mail for ${email} in ${OUTBOX}` },
    )
    .toBeTruthy()
  return link ?? ''
}

/** axe judges the page at rest: a pointer left over a button would have it judge hover colours. */
async function restPointer(page: Page) {
  await page.mouse.move(1, (page.viewportSize()?.height ?? 800) - 1)
}

test.describe('e-mail verification', () => {
  test('the link confirms the address, leaks its token nowhere, and the account page says Verified', async ({
    page,
    axe,
    baseURL,
  }, testInfo) => {
    test.setTimeout(90_000)
    const email = uniqueEmail(testInfo.project.name)
    await signUp(page, email)
    const card = page.getByRole('region', { name: 'E-mail Address' })
    await expect(card.getByText('Not verified yet')).toBeVisible()
    await expect(card.getByRole('button', { name: 'Send the link again' })).toBeEnabled()
    await restPointer(page)
    await axe()

    const link = await verificationLink(email)
    const token = link.split('token=')[1] ?? 'missing'
    const requests: Request[] = []
    page.on('request', (request) => requests.push(request))
    await page.goto(link)
    await expect(page.getByRole('heading', { level: 1, name: 'E-mail Verified' })).toBeVisible()
    await expect(page.getByRole('heading', { level: 1, name: 'E-mail Verified' })).toBeFocused()
    // Read, then taken out of the address bar and the history.
    await expect(page).toHaveURL(/\/verify-email$/)
    await page.waitForLoadState('networkidle')
    expect(requests.length).toBeGreaterThan(3)
    for (const request of requests) {
      // Nothing but the shop itself is asked for anything, and no request names the page it came from (a
      // module's own imports name that module, which is harmless).
      expect(new URL(request.url()).origin).toBe(new URL(baseURL ?? '').origin)
      const referer = (await request.allHeaders()).referer ?? ''
      expect({ url: request.url(), referer }).toEqual({
        url: request.url(),
        referer: expect.not.stringContaining('verify-email'),
      })
      expect(referer).not.toContain(token)
      if (request.url().includes('/api/')) expect(request.url()).not.toContain(token)
    }
    await restPointer(page)
    await axe()
    await expect(page.getByRole('link', { name: 'Go to My Account' })).toHaveAttribute('href', '/profile')

    await page.getByRole('link', { name: 'Go to My Account' }).click()
    await expect(card.getByText('Verified', { exact: true })).toBeVisible()
    await expect(card.getByRole('button', { name: 'Send the link again' })).toHaveCount(0)

    // The link works once; opened again, it says the address is confirmed already.
    await page.goto(link)
    await expect(page.getByRole('heading', { level: 1, name: 'Already Verified' })).toBeVisible()
  })

  test("'Send the link again' is busy while it sends, then says what happened", async ({
    page,
    axe,
  }, testInfo) => {
    test.setTimeout(60_000)
    const email = uniqueEmail(testInfo.project.name)
    await register(page, email)
    await page.goto('/profile')
    const card = page.getByRole('region', { name: 'E-mail Address' })
    const button = card.getByRole('button', { name: 'Send the link again' })
    const status = card.getByRole('status')

    // Held until the test lets the answer through, to see the busy state.
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    await page.route('**/api/auth/resend-verification', async (route) => {
      await held
      await route.continue()
    })
    await button.click()
    const busy = card.getByRole('button', { name: 'Sending...' })
    await expect(busy).toBeDisabled()
    await expect(busy).toHaveAttribute('aria-busy', 'true')
    release()
    await expect(status).toHaveText('We have sent a new link to your e-mail address. It works for 24 hours.')
    await expect(button).toBeEnabled()
    await restPointer(page)
    await axe()
    // The new link is the one that works.
    await page.unroute('**/api/auth/resend-verification')

    await page.route('**/api/auth/resend-verification', (route) =>
      route.fulfill({
        status: 429,
        headers: { 'retry-after': '3600' },
        json: {
          error: 'Too many links asked for this e-mail. Please check your inbox, or try again in an hour.',
        },
      }),
    )
    await button.click()
    await expect(status).toHaveText(
      'Too many links asked for this e-mail. Please check your inbox, or try again in an hour.',
    )
    await expect(status).toHaveClass(/text-danger/)
  })

  test('opened signed out, the link asks to sign in to its account, then confirms the address', async ({
    page,
    browser,
    baseURL,
    axe,
  }, testInfo) => {
    test.setTimeout(90_000)
    // The account is made on a phone...
    const phone = await browser.newContext({ baseURL })
    const email = uniqueEmail(testInfo.project.name)
    await register(await phone.newPage(), email)
    await phone.close()
    const link = await verificationLink(email)

    // ...and the mail read on a laptop, signed out: the mailbox alone proves nothing about the account.
    await page.goto(link)
    const heading = page.getByRole('heading', { level: 1, name: 'Sign In to Confirm' })
    await expect(heading).toBeVisible()
    await expect(heading).toBeFocused()
    await expect(page).toHaveURL(/\/verify-email$/)
    await restPointer(page)
    await axe()
    await page.getByRole('link', { name: 'Sign In' }).click()
    await expect(page).toHaveURL(/\/login\?next=%2Fverify-email$/)
    await waitForIsland(page, 'LoginForm')
    await input(page, 'Email').fill(email)
    await input(page, 'Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()
    // Back on the link's page, which kept the token in the tab and now confirms it.
    await expect(page.getByRole('heading', { level: 1, name: 'E-mail Verified' })).toBeVisible()
    await expect(page).toHaveURL(/\/verify-email$/)
    expect(await page.evaluate(() => sessionStorage.getItem('verify-email-token'))).toBeNull()
  })

  test('an unknown link says so; with JavaScript off the page says it needs JavaScript', async ({
    page,
    browser,
  }) => {
    await page.goto('/verify-email')
    await waitForIsland(page, 'VerifyEmail')
    await expect(page.getByRole('heading', { level: 1, name: 'Invalid Link' })).toBeVisible()
    // Signed out, even a made-up link is first asked to sign in: nothing about it is told to a stranger.
    await page.goto(`/verify-email?token=${'a'.repeat(32)}`)
    await expect(page.getByRole('heading', { level: 1, name: 'Sign In to Confirm' })).toBeVisible()
    await expect(page).toHaveURL(/\/verify-email$/)
    // Signed in, it is told the link is not valid.
    await register(page, uniqueEmail(test.info().project.name))
    await page.goto(`/verify-email?token=${'a'.repeat(32)}`)
    await expect(page.getByRole('heading', { level: 1, name: 'Invalid Link' })).toBeVisible()

    const context = await browser.newContext({
      javaScriptEnabled: false,
      baseURL: test.info().project.use.baseURL,
    })
    const quiet = await context.newPage()
    await quiet.goto(`/verify-email?token=${'a'.repeat(32)}`)
    await expect(quiet.getByText('This form needs JavaScript.')).toBeVisible()
    await expect(quiet.locator('main form')).toHaveCount(0)
    await expect(quiet.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex')
    await context.close()
  })
})

test('the owner signing in with Google shuts out whoever registered the address first', async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(60_000)
  // Someone registers the owner's address and stays signed in.
  const email = uniqueEmail(testInfo.project.name)
  await register(page, email)
  await page.goto('/profile')
  await expect(
    page.getByRole('region', { name: 'E-mail Address' }).getByText('Not verified yet'),
  ).toBeVisible()

  // The owner, in a browser of their own, signs in with Google: its claim proves the address.
  const owner = await browser.newContext({ baseURL })
  await owner.addCookies([{ name: 'fake_google_email', value: email, url: baseURL ?? '' }])
  const ownerPage = await owner.newPage()
  await ownerPage.goto('/login')
  await waitForIsland(ownerPage, 'LoginForm')
  await ownerPage.getByRole('link', { name: 'Sign in with Google' }).click()
  await expect(ownerPage).toHaveURL(/\/account$/)
  await expect(
    ownerPage.getByRole('region', { name: 'E-mail Address' }).getByText('Verified', { exact: true }),
  ).toBeVisible()
  await owner.close()

  // The first browser's session is gone, and the password it chose opens nothing.
  await page.goto('/account')
  await expect(page).toHaveURL(/\/login$/)
  await waitForIsland(page, 'LoginForm')
  await input(page, 'Email').fill(email)
  await input(page, 'Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
  await expect(page.locator('.toast-list li', { hasText: 'Use Google Sign In' })).toBeVisible()
  await expect(page).toHaveURL(/\/login$/)
})
