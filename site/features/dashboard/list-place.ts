/**
 * Where a control of the orders list sits: which control it is (`data-control`), the rows around its row
 * and the list. An order's row leaves the list when the order no longer matches what is shown (Mark
 * Shipped with 'Ready to ship' shown, a Retry with 'Failed', an order cancelled in the dialog opened from
 * its number), and the control with the focus, or the dialog's opener, goes with it: focus then lands in
 * the row that took its place rather than on the page's start (docs/product.md#dashboard).
 */
export interface ListPlace {
  control: HTMLElement
  /** The list's panel (Section), whose heading takes the focus once no row is left; null outside the list. */
  list: HTMLElement | null
  /** The numbers of the rows after the control's, nearest first, then of those before it, nearest first. */
  neighbours: string[]
}

export function placeOf(control: HTMLElement): ListPlace {
  const row = control.closest<HTMLElement>('tr[data-order]')
  const rows = [...(row?.parentElement?.querySelectorAll<HTMLElement>(':scope > tr[data-order]') ?? [])]
  const at = row ? rows.indexOf(row) : -1
  const numbers = rows.map((each) => each.dataset.order ?? '')
  return {
    control,
    // The panel named by its heading, not the table's scroll region, which goes with the last row.
    list: row?.closest<HTMLElement>('section[aria-labelledby]') ?? null,
    neighbours: at < 0 ? [] : [...numbers.slice(at + 1), ...numbers.slice(0, at).reverse()],
  }
}

/** Nothing has the focus: what held it was taken out of the page. */
export function focusIsLost(): boolean {
  return !document.activeElement || document.activeElement === document.body
}

/**
 * Focuses the control; once its row has gone, the same control in the nearest row still listed (the next,
 * else the one before), or that row's number when it has no such control, or the list's heading when no row
 * is left.
 */
export function focusPlace(place: ListPlace): void {
  placeNow(place)?.focus()
}

function placeNow({ control, list, neighbours }: ListPlace): HTMLElement | null | undefined {
  if (control.isConnected) return control
  if (!list?.isConnected) return null
  for (const number of neighbours) {
    const row = list.querySelector(`tr[data-order="${number}"]`)
    if (!row) continue
    const same = row.querySelector<HTMLElement>(`[data-control="${control.dataset.control}"]`)
    return same ?? row.querySelector<HTMLElement>('[data-control="details"]')
  }
  return document.getElementById(list.getAttribute('aria-labelledby') ?? '')
}
