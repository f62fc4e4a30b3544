import { type FormEvent, useEffect, useRef, useState } from 'react'
import { errorIdOf, FieldError } from '../../components/form/fields'
import { useFieldErrors } from '../account/use-field-errors'
import { showToast } from '../toasts/store'
import { type DashboardProduct, setProductStock } from './api'
import { refusedValue, serverMessageOr } from './dashboard-logic'
import {
  isReceived,
  receivedField,
  refusedField,
  type StockEntry,
  stockBody,
  stockEdit,
  toShipNote,
} from './stock-edit'

type Level = DashboardProduct['stock']

/** `toShip`: units paid orders still have to ship of it, which a count leaves out. */
type Entry = StockEntry & { stock: Level; toShip: number; former?: true }

/**
 * The counted figures of a product: itself when it has no scents, else each scent; then the scents its
 * content no longer lists that still hold units (renamed or removed: units of earlier orders come back there).
 */
function entriesOf(product: DashboardProduct): Entry[] {
  const listed: Entry[] =
    product.variants.length === 0
      ? [{ name: '', label: product.name, stock: product.stock, toShip: product.toShip ?? 0 }]
      : product.variants.map((variant) => ({
          name: variant.name,
          label: variant.name === product.name ? variant.name : `${product.name} (${variant.name})`,
          stock: variant.stock,
          toShip: variant.toShip,
        }))
  const former: Entry[] = product.formerVariants.map((variant) => ({
    name: variant.name,
    label: `${product.name} (${variant.name || 'no scent'})`,
    stock: variant.stock,
    toShip: variant.toShip,
    former: true,
  }))
  return [...listed, ...former]
}

const fieldOf = (stock: Level) => (stock ? String(stock.onHand) : '')

/** Each field's figure as the server last said it, by scent ('' for a product without scents). */
const figuresOf = (product: DashboardProduct): Record<string, string> =>
  Object.fromEntries(entriesOf(product).map((entry) => [entry.name, fieldOf(entry.stock)]))

/** The fields after new figures came: each still showing `before` takes the new one; a typed one stays. */
function following(
  fields: Record<string, string>,
  before: Record<string, string>,
  fresh: Record<string, string>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fresh).map(([name, figure]) => {
      const typed = fields[name] ?? ''
      return [name, typed === (before[name] ?? '') ? figure : typed]
    }),
  )
}

/** Below the field: what is free, or, below 0, the units paid orders are owed (docs/product.md#dashboard). */
function hintOf(stock: Level): string {
  if (!stock) return 'Not counted'
  return stock.onHand < 0 ? `${-stock.onHand} owed to paid orders` : `${stock.available} free`
}

/** The ids of a figure's two fields; `index` is the entry's place in the form. */
const shelfId = (product: number, index: number) => `stock-${product}-${index}`
const receivedId = (product: number, index: number) => `${shelfId(product, index)}-received`

/**
 * One figure's two fields: the units on the shelf, and the units received (added to it), with its hint;
 * under both, what paid orders still have to ship of it, part of the shelf field's description. A field
 * marked invalid is described by the form's message too (`errorId`).
 */
function StockFields({
  id,
  entry,
  value,
  received,
  errors,
  errorId,
  onValue,
  onReceived,
}: {
  id: string
  entry: Entry
  value: string
  received: string
  errors: Partial<Record<string, string>>
  errorId: string
  onValue: (value: string) => void
  onReceived: (value: string) => void
}) {
  const hint = `${id}-hint`
  const toShip = toShipNote(entry.toShip)
  const toShipId = `${id}-to-ship`
  const shelfInvalid = Boolean(errors[entry.name])
  const receivedInvalid = Boolean(errors[receivedField(entry.name)])
  const describedBy = (...ids: (string | false | null)[]) => ids.filter(Boolean).join(' ')
  return (
    // As wide as its fields: the note under them wraps there instead of widening the row.
    <div className="w-min">
      <div className="flex items-end gap-2">
        <div>
          <label htmlFor={id} className="block text-xs">
            {entry.former ? `${entry.name || 'No scent'} (no longer sold)` : entry.name || 'Units'}
            <span className="sr-only"> of {entry.label}</span>
          </label>
          <input
            id={id}
            className="field w-24"
            type="number"
            inputMode="numeric"
            step="1"
            min="0"
            max="99999"
            value={value}
            aria-invalid={shelfInvalid || undefined}
            aria-describedby={describedBy(hint, toShip && toShipId, shelfInvalid && errorId)}
            onChange={(event) => onValue(event.target.value)}
          />
          <span id={hint} className="block text-xs text-muted">
            {hintOf(entry.stock)}
          </span>
        </div>
        {entry.stock && (
          <div>
            <label htmlFor={`${id}-received`} className="block text-xs">
              Received
              <span className="sr-only"> units of {entry.label}</span>
            </label>
            <input
              id={`${id}-received`}
              className="field w-20"
              type="number"
              inputMode="numeric"
              step="1"
              min="1"
              max="99999"
              value={received}
              aria-invalid={receivedInvalid || undefined}
              aria-describedby={describedBy(hint, receivedInvalid && errorId)}
              onChange={(event) => onReceived(event.target.value)}
            />
            {/* Keeps the two fields' bottoms in line with the hint under the first. */}
            <span className="block text-xs" aria-hidden="true">
              &nbsp;
            </span>
          </div>
        )}
      </div>
      {toShip && (
        <span id={toShipId} className="mt-1 block min-w-40 text-xs text-muted" data-to-ship>
          {toShip}
        </span>
      )}
    </div>
  )
}

/**
 * Units on the shelf, per product or per scent, beside the weight (docs/product.md#dashboard): a blank
 * field is not counted (sells without limit). Each field says how many are free of open checkouts, or
 * how many paid orders are owed, and how many paid orders still have to ship, which a count leaves out;
 * 'Received' adds units that came in to a counted figure, so a delivery pays back what is owed first. Only
 * the figures staff changed are sent: an unchanged one would undo the sales made since it was read. When
 * the figures are read again (Refresh, a save), the fields staff have not touched follow them.
 */
export function ProductStock({
  product,
  onSaved,
}: {
  product: DashboardProduct
  onSaved: (product: DashboardProduct) => void
}) {
  const entries = entriesOf(product)
  const [values, setValues] = useState<Record<string, string>>(() => figuresOf(product))
  const [received, setReceived] = useState<Record<string, string>>({})
  // One key per delivery typed: kept while the same save is tried again, so its units are added once, also
  // after the figures were read again.
  const receipt = useRef<{ key: string; for: string } | null>(null)
  const read = useRef(figuresOf(product))
  // Keyed as stockEdit names fields: the scent ('' for the product's own figure), or `received:` and it.
  const fields = useFieldErrors<string>((field) => {
    const index = entries.findIndex((entry) => entry.name === field || receivedField(entry.name) === field)
    return field.startsWith('received:') ? receivedId(product.id, index) : shelfId(product.id, index)
  })
  const errorId = errorIdOf(`stock-${product.id}`)
  const [busy, setBusy] = useState(false)

  // Keyed by the figures themselves: the product object is new on every render of the list.
  const figures = JSON.stringify(figuresOf(product))
  useEffect(() => {
    const fresh = JSON.parse(figures) as Record<string, string>
    const before = read.current
    read.current = fresh
    setValues((current) => following(current, before, fresh))
    // The receipt's key stays: new figures (Refresh, the poll) may be the very save whose answer was lost
    // adding the units, and the same delivery sent again must be added once. What is typed into 'Received'
    // since is another delivery, with a key of its own (onReceived).
    // A figure no longer counted has no 'Received' field: what was typed in it goes.
    setReceived((current) => Object.fromEntries(Object.entries(current).filter(([name]) => fresh[name])))
  }, [figures])

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy) return
    const edit = stockEdit(entries, values, read.current, received)
    if (edit.kind === 'invalid') return fields.refused(edit.field, 'Update Failed', edit.message)
    fields.reset()
    if (edit.kind === 'nothing') {
      showToast({ title: 'Nothing To Save', description: `No figure of ${product.name} was changed.` })
      return
    }
    const sent = { ...values }
    const sentReceived = { ...received }
    const receivedSent = JSON.stringify(
      Object.entries(edit.figures).filter(([, figure]) => isReceived(figure)),
    )
    if (receipt.current?.for !== receivedSent)
      receipt.current = { key: crypto.randomUUID(), for: receivedSent }
    setBusy(true)
    try {
      const answer = await setProductStock(
        product.id,
        stockBody(product.variants.length > 0, edit.figures),
        receivedSent === '[]' ? undefined : receipt.current.key,
      )
      receipt.current = null
      const saved = figuresOf(answer.product)
      read.current = saved
      // A field typed into while the save was under way keeps what was typed; units received once are
      // added once, so their fields empty.
      setValues((current) => following(current, sent, saved))
      setReceived((current) =>
        Object.fromEntries(Object.entries(current).filter(([name, typed]) => typed !== sentReceived[name])),
      )
      onSaved(answer.product)
      showToast({ title: 'Stock Updated', description: answer.message })
    } catch (error) {
      const refused = refusedValue(error)
      const field = refused === null ? null : refusedField(product.name, edit.figures, refused)
      if (refused !== null && field !== null) fields.refused(field, 'Update Failed', refused)
      else
        showToast({
          title: 'Update Failed',
          description: serverMessageOr(error, 'The stock could not be saved. Please try again.'),
          variant: 'error',
        })
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="mt-3" onSubmit={onSubmit} noValidate data-stock-form>
      <fieldset>
        <legend className="text-xs font-semibold">
          Stock of {product.name} (units on the shelf not yet sold: count without the jars of paid orders
          still to ship; blank: not counted)
        </legend>
        <div className="mt-1 flex flex-wrap items-end gap-3">
          {entries.map((entry, index) => (
            <StockFields
              key={entry.name}
              id={shelfId(product.id, index)}
              entry={entry}
              value={values[entry.name] ?? ''}
              received={received[entry.name] ?? ''}
              errors={fields.errors}
              errorId={errorId}
              onValue={(value) => {
                setValues((current) => ({ ...current, [entry.name]: value }))
                fields.clear(entry.name)
              }}
              onReceived={(value) => {
                // What is typed now is another delivery: its save gets a key of its own.
                receipt.current = null
                setReceived((current) => ({ ...current, [entry.name]: value }))
                fields.clear(receivedField(entry.name))
              }}
            />
          ))}
          {/* Waits without `disabled`, which would drop the focus of the one who pressed it. */}
          <button
            type="submit"
            className={`btn-outline !px-3 !py-2 text-xs ${busy ? 'opacity-60' : ''}`}
            aria-disabled={busy}
          >
            {busy ? 'Saving...' : 'Save'}
            <span className="sr-only"> stock of {product.name}</span>
          </button>
        </div>
        {/* One message for the form (one field is marked at a time), as wide as the form, not a field. */}
        <FieldError id={`stock-${product.id}`} error={Object.values(fields.errors)[0]} />
      </fieldset>
    </form>
  )
}
