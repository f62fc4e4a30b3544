// The dashboard's Products section when a value is refused: by the form's own check or by the server, the
// reason is shown under the field it is about, which is marked invalid, described by it and focused, as
// every form of the shop shows what to fix (docs/product.md#forms), not only in a toast.
import { PRODUCT_WEIGHT_MESSAGE } from '@core/rules/product-weight'
import { shopOrigin } from './support/accounts'
import { expect, test } from './support/fixtures'
import { addStaff, oneAtATime, signInToDashboard, unique } from './support/staff'

/** Workforce Repair Original Grit: no other test edits its weight. */
const REPAIR = 4
/** The Brush & Comb Duo: no scents, one stock field; its shelf is shared with tests/e2e/stock.spec.ts. */
const DUO = 5

test('a weight refused, by the form or by the server, is shown on its field', async ({ page, axe }) => {
  test.setTimeout(90_000)
  const staff = `${unique('weight-refused')}@example.com`
  addStaff(staff)
  await signInToDashboard(page, staff)
  const product = page.locator(`li[data-product="${REPAIR}"]`)
  const field = product.getByRole('spinbutton', { name: /^Weight of/ })
  const save = product.getByRole('button', { name: /^Save weight/ })

  // The form's own check: two decimals.
  await field.fill('2.55')
  await save.click()
  await expect(field).toHaveAttribute('aria-invalid', 'true')
  await expect(field).toHaveAccessibleDescription(PRODUCT_WEIGHT_MESSAGE)
  await expect(field).toBeFocused()
  await field.fill('2.6')
  await expect(field).not.toHaveAttribute('aria-invalid')
  await expect(field).toHaveAccessibleDescription('')

  // The server refusing a weight the form let through (a rule of a newer server, say): the weight is all
  // the save sends, so the refusal is the field's. Answered here without reaching the server.
  const refusal = 'Weight must be at most 100 oz for this product.'
  await page.route(`**/api/products/${REPAIR}/weight`, (route) =>
    route.fulfill({ status: 422, json: { error: refusal } }),
  )
  await save.click()
  await expect(field).toHaveAttribute('aria-invalid', 'true')
  await expect(field).toHaveAccessibleDescription(refusal)
  await expect(field).toBeFocused()
  await expect(page.locator('.toast-list li', { hasText: 'Update Failed' }).first()).toContainText(refusal)
  await axe({ include: [`[data-product="${REPAIR}"]`] })
})

test('units received for a figure no longer counted: the server refuses them on their field', async ({
  page,
  axe,
}) => {
  test.setTimeout(90_000)
  // The Duo's shelf is tests/e2e/stock.spec.ts's too: one at a time.
  await oneAtATime('stock-figures', async () => {
    const staff = `${unique('received-refused')}@example.com`
    addStaff(staff)
    await signInToDashboard(page, staff)
    const form = page.locator(`[data-product="${DUO}"] [data-stock-form]`)
    const shelf = form.getByLabel('Units of The Brush & Comb Duo', { exact: true })
    const received = form.getByLabel('Received units of The Brush & Comb Duo', { exact: true })
    const save = form.getByRole('button', { name: 'Save stock of The Brush & Comb Duo' })
    const toasts = page.locator('.toast-list li')
    await shelf.fill('7')
    await save.click()
    await expect(toasts.filter({ hasText: 'Stock Updated' }).first()).toContainText(
      'The Brush & Comb Duo: 7 on the shelf, 7 free.',
    )

    // Someone else stops counting it; this page has not read the figures since, and still offers 'Received'.
    const stopped = await page.request.patch(`/api/products/${DUO}/stock`, {
      data: { stock: null },
      headers: { origin: shopOrigin() },
    })
    expect(stopped.status(), await stopped.text()).toBe(200)
    await received.fill('3')
    const answered = page.waitForResponse((res) => res.url().endsWith(`/api/products/${DUO}/stock`))
    await save.click()
    expect((await answered).status()).toBe(422)
    const reason = 'The Brush & Comb Duo is not counted: enter the units on the shelf to start counting it.'
    await expect(received).toHaveAttribute('aria-invalid', 'true')
    await expect(received).toHaveAccessibleDescription(`7 free ${reason}`)
    await expect(received).toBeFocused()
    await expect(shelf).not.toHaveAttribute('aria-invalid')
    await expect(form.getByText(reason, { exact: true })).toBeVisible()
    await axe({ include: [`[data-product="${DUO}"]`] })

    // Typing clears the mark; Refresh shows the figure as it is now: not counted.
    await received.fill('')
    await expect(received).not.toHaveAttribute('aria-invalid')
    await expect(form.getByText(reason, { exact: true })).toBeHidden()
    await page.getByRole('button', { name: 'Refresh' }).click()
    await expect(shelf).toHaveValue('')
    await expect(form.getByText('Not counted', { exact: true })).toBeVisible()
  })
})
