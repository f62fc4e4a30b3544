// 'Your Data' on the profile, from the customer's side: "Download my data" as a plain link (it works from
// the server's HTML before any script has run, and the page stays where it is), the 'Delete your account?'
// dialog (labelled, focus inside and back, Escape, a wrong password, busy), and the end: signed out, on a
// page that says the account was deleted. An account made with Google confirms with Google instead, again
// when its sign-in is more than 10 minutes old.
import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { input, PASSWORD, register, signUp } from './support/accounts'
import { expect, test, waitForIsland } from './support/fixtures'
import { serverDatabase } from './support/staff'

function uniqueEmail(project: string, name: string): string {
  return `${name}.${project}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`
}

async function signedInCookie(page: Page): Promise<string | undefined> {
  return (await page.context().cookies()).find((cookie) => cookie.name === 'signed_in')?.value
}

/** axe judges the page at rest: a pointer left over a button would have it judge hover colours. */
async function restPointer(page: Page) {
  await page.mouse.move(1, (page.viewportSize()?.height ?? 800) - 1)
}

async function expectDeletedAndSignedOut(page: Page) {
  await expect(page).toHaveURL(/\/account-deleted$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Your Account Has Been Deleted' })).toBeVisible()
  await expect.poll(() => signedInCookie(page)).toBeUndefined()
  expect((await page.request.get('/api/auth/user')).status()).toBe(401)
  await page.goto('/profile')
  await expect(page).toHaveURL(/\/login$/)
}

test.describe('Your Data on the profile', () => {
  // Two sign-ups, two axe runs and two downloads on a machine shared with others.
  test.setTimeout(90_000)

  test('download before and after the script runs, then delete with the password and land signed out', async ({
    page,
    axe,
  }, testInfo) => {
    const email = uniqueEmail(testInfo.project.name, 'data')
    await register(page, email)

    // The profile with every script of the site held back: only the server's HTML.
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
    await page.goto('/profile', { waitUntil: 'commit' })
    const download = page.getByRole('link', { name: 'Download my data' })
    await expect(download).toHaveAttribute('href', '/api/user/export')
    await expect(page.getByRole('button', { name: 'Delete account' })).toBeDisabled()
    const early = page.waitForEvent('download')
    await download.click()
    const file = await early
    expect(file.suggestedFilename()).toMatch(/^grit-and-whisker-my-data-\d{4}-\d{2}-\d{2}\.json$/)
    const data = JSON.parse(readFileSync((await file.path()) ?? '', 'utf8'))
    expect(data.profile).toMatchObject({ email, firstName: 'Sam', lastName: 'Carpenter' })
    expect(data.orders).toEqual([])
    // The download left the page where it was, with nothing personal in its address.
    expect(new URL(page.url()).pathname).toBe('/profile')
    expect(new URL(page.url()).search).toBe('')

    release()
    await waitForIsland(page, 'AccountData')
    await expect(page.getByRole('region', { name: 'Personal Information' })).toBeVisible()
    const again = page.waitForEvent('download')
    await download.click()
    expect(JSON.parse(readFileSync((await (await again).path()) ?? '', 'utf8')).profile.email).toBe(email)

    // The dialog: labelled, described, focus in the password field; Escape closes it and focus returns.
    const opener = page.getByRole('button', { name: 'Delete account' })
    await opener.click()
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' })
    await expect(dialog).toBeVisible()
    await expect(dialog).toContainText('state, country and first three characters of the ZIP code')
    const password = input(dialog, 'Password')
    await expect(password).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    await expect(opener).toBeFocused()

    // Focus stays inside while it is open: tabbing past the last button comes back into the dialog.
    await opener.click()
    await expect(password).toBeFocused()
    for (let step = 0; step < 8; step++) {
      await page.keyboard.press('Tab')
      const inside = await dialog.evaluate((element) => element.contains(document.activeElement))
      const onPage = await page.evaluate(() => document.activeElement !== document.body)
      // The browser's own toolbar may take a turn; the page behind the dialog never does.
      if (onPage) expect(inside).toBe(true)
    }

    // Nothing typed: said so, nothing sent. A wrong password: the server's message, the account stays.
    await dialog.getByRole('button', { name: 'Delete my account' }).click()
    await expect(dialog.getByRole('alert')).toHaveText('Please enter your password to delete your account.')
    await password.fill('not-my-password')
    await dialog.getByRole('button', { name: 'Delete my account' }).click()
    await expect(dialog.getByRole('alert')).toHaveText(
      'That password is not right, so your account was not deleted.',
    )
    await restPointer(page)
    await axe()

    // The right one: busy while it works, then the account is gone and the browser signed out.
    await password.fill(PASSWORD)
    let answer: () => void = () => undefined
    const answered = new Promise<void>((resolve) => {
      answer = resolve
    })
    await page.route('**/api/user', async (route) => {
      await answered
      await route.continue()
    })
    await dialog.getByRole('button', { name: 'Delete my account' }).click()
    await expect(dialog.getByRole('button', { name: 'Deleting...' })).toBeDisabled()
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeDisabled()
    answer()
    await expectDeletedAndSignedOut(page)
    await page.goto('/account-deleted')
    await restPointer(page)
    await axe()

    // The same e-mail can sign up again, and starts empty.
    await signUp(page, email)
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible()
  })

  test('an account made with Google confirms with Google, again when its sign-in is over 10 minutes old', async ({
    page,
    baseURL,
  }, testInfo) => {
    const email = uniqueEmail(testInfo.project.name, 'gdata')
    await page.context().addCookies([{ name: 'fake_google_email', value: email, url: baseURL ?? '' }])
    await page.goto('/google-sign-in')
    await expect(page).toHaveURL(/\/account$/)
    await waitForIsland(page, 'AccountData')

    // The sign-in was 11 minutes ago, as far as the server's records go.
    const db = await serverDatabase()
    try {
      await db.execute({
        sql: `update sessions set created_at = created_at - ${11 * 60 * 1000}
              where user_id = (select id from users where email = ?)`,
        args: [email],
      })
    } finally {
      db.close()
    }

    await page.getByRole('button', { name: 'Delete account' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' })
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused()
    await expect(input(dialog, 'Password')).toHaveCount(0)
    await dialog.getByRole('button', { name: 'Delete my account' }).click()
    await expect(dialog.getByRole('alert')).toHaveText(
      'To delete your account, please sign in with Google again first. It only takes a moment.',
    )
    await dialog.getByRole('link', { name: 'Sign in with Google again' }).click()

    // Back on the profile with the dialog open again, and this time it goes through.
    await expect(page).toHaveURL(/\/profile$/)
    await expect(dialog).toBeVisible()
    await dialog.getByRole('button', { name: 'Delete my account' }).click()
    await expectDeletedAndSignedOut(page)
  })
})
