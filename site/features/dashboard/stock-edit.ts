/**
 * What the stock form of one product sends (docs/product.md#dashboard): for each counted figure, the units
 * on the shelf when staff changed the field, or the units received when they typed some under 'Received'
 * (added to the figure as it is then, so units owed to paid orders are paid back first). Pure, so the
 * rules are tested without a page.
 */
import { lineLabel } from '@core/rules/catalog'
import { parseStock, RECEIVED_MESSAGE, STOCK_MESSAGE } from '@core/rules/stock'

export type StockFigure = number | null | { received: number }

export const isReceived = (figure: StockFigure): figure is { received: number } =>
  figure !== null && typeof figure === 'object'

/** One field pair of the form: its scent ('' for a product without scents) and how people name it. */
export interface StockEntry {
  name: string
  label: string
}

export type StockEdit =
  | { kind: 'edit'; figures: Record<string, StockFigure> }
  | { kind: 'nothing' }
  /** `field` is the id's key of the field to mark: the scent, or `received:` and the scent. */
  | { kind: 'invalid'; field: string; message: string }

export const receivedField = (name: string) => `received:${name}`

/**
 * Beside a figure: the units paid orders still have to ship, which its count leaves out (payment took them
 * off the figure; shipping does not). Null when there are none.
 */
export function toShipNote(units: number): string | null {
  if (units <= 0) return null
  return units === 1
    ? '1 in a paid order still to ship: leave it out of the count'
    : `${units} in paid orders still to ship: leave them out of the count`
}

/**
 * The edit the fields make: `values` the shelf fields as typed, `read` what they showed when last read
 * (an unchanged one is not sent: it would undo the sales made since), `received` the 'Received' fields.
 */
export function stockEdit(
  entries: readonly StockEntry[],
  values: Readonly<Record<string, string>>,
  read: Readonly<Record<string, string>>,
  received: Readonly<Record<string, string>>,
): StockEdit {
  const figures: Record<string, StockFigure> = {}
  for (const entry of entries) {
    const typed = values[entry.name] ?? ''
    // Units received add to a counted figure only; a field left from before it stopped being counted is not sent.
    const came = (read[entry.name] ?? '') === '' ? '' : (received[entry.name] ?? '').trim()
    const recounted = typed !== (read[entry.name] ?? '')
    if (recounted && came !== '') {
      return {
        kind: 'invalid',
        field: receivedField(entry.name),
        message: `${entry.label}: enter the units on the shelf or the units received, not both.`,
      }
    }
    if (came !== '') {
      const units = parseStock(came)
      if (typeof units !== 'number' || units < 1) {
        return {
          kind: 'invalid',
          field: receivedField(entry.name),
          message: `${entry.label}: ${RECEIVED_MESSAGE}`,
        }
      }
      figures[entry.name] = { received: units }
    } else if (recounted) {
      const units = parseStock(typed.trim())
      if (units === undefined)
        return { kind: 'invalid', field: entry.name, message: `${entry.label}: ${STOCK_MESSAGE}` }
      figures[entry.name] = units
    }
  }
  return Object.keys(figures).length === 0 ? { kind: 'nothing' } : { kind: 'edit', figures }
}

/** What PATCH /api/products/{id}/stock is sent (docs/product.md#staff-calls). */
export type StockBody = { stock?: StockFigure; variants?: Record<string, StockFigure> }

/**
 * The body for the changed `figures` of a product: its scents' (or its own, '', for one without scents)
 * and any former scent's, which go under `variants` in both cases. Only the changed ones are sent: one left
 * out stays as it is (a `stock: null` sent for nothing would stop counting the product).
 */
export function stockBody(hasScents: boolean, figures: Readonly<Record<string, StockFigure>>): StockBody {
  if (hasScents) return { variants: { ...figures } }
  const named = Object.entries(figures).filter(([name]) => name !== '')
  return {
    ...('' in figures ? { stock: figures[''] ?? null } : {}),
    ...(named.length > 0 ? { variants: Object.fromEntries(named) } : {}),
  }
}

/**
 * Which field a save the server refused (422, 409) was about, as the ids of `stockEdit` name fields: the
 * one figure sent, or, of several, the one whose line the message begins with (the server names the line
 * first in each message about one figure: '{line}: …', '{line} is not counted: …'); null when neither
 * tells, and the message is the whole form's.
 */
export function refusedField(
  product: string,
  figures: Readonly<Record<string, StockFigure>>,
  message: string,
): string | null {
  const fieldOf = (name: string) => {
    const figure = figures[name]
    return figure !== undefined && isReceived(figure) ? receivedField(name) : name
  }
  const sent = Object.keys(figures)
  if (sent.length === 1) return fieldOf(sent[0] as string)
  let found: { name: string; length: number } | null = null
  for (const name of sent) {
    for (const prefix of [`${lineLabel({ name: product, variant: name })} `, `${name || product}: `]) {
      if (message.startsWith(prefix) && prefix.length > (found?.length ?? 0))
        found = { name, length: prefix.length }
    }
  }
  return found ? fieldOf(found.name) : null
}
