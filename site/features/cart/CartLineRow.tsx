import { formatCents, formatCurrency } from '@core/rules/money'
import { purchasable, type StockState } from '@core/rules/stock'
import { type MouseEvent, useState } from 'react'
import { MAX_QUANTITY } from './cart-logic'
import { removeFromCart, setLineQuantity } from './checkout-store'
import type { CartLine } from './store'
import { unitCents } from './totals'

/**
 * A line's key and the stem of its quantity input's id: letters, digits and '-' as they are, any other
 * character as its code between underscores, so two scents never share one ('Rose & Oud', 'Rose + Oud').
 */
export function lineId(line: CartLine): string {
  return `${line.product.id}-${line.selectedVariant ?? ''}`.replace(
    /[^A-Za-z0-9-]/g,
    (character) => `_${character.codePointAt(0)?.toString(16)}_`,
  )
}

/**
 * When a line cannot be bought as it is: what to tell the shopper, and the way to fix it. `left`: the units
 * left when the line asks for more; null when the shop no longer sells the product at all.
 */
function StockWarning({
  line,
  left,
  onRemove,
}: {
  line: CartLine
  left: number | null
  onRemove: () => void
}) {
  const { product, selectedVariant } = line
  const name = selectedVariant ? `${product.name} (${selectedVariant})` : product.name
  const lower = left !== null && left > 0 ? left : null
  return (
    <p
      className="mt-2 flex flex-wrap items-center gap-2 text-sm font-bold text-danger"
      role="alert"
      data-stock-warning
    >
      {left === null
        ? `${name} is no longer sold.`
        : left === 0
          ? `${name} is sold out.`
          : `Only ${left} left of ${name}.`}
      <button
        type="button"
        className="inline-flex min-h-11 items-center underline"
        onClick={() => (lower === null ? onRemove() : setLineQuantity(product.id, lower, selectedVariant))}
      >
        {lower === null ? 'Remove it' : `Lower to ${lower}`}
        <span className="sr-only"> {name}</span>
      </button>
    </p>
  )
}

/**
 * One line of the cart: the product, its quantity stepper, Remove and the line total; and, when `stock`
 * (live, ../catalog/stock.ts) has fewer left than the line asks for, a warning that offers to lower it, or,
 * when the live catalogue no longer lists the product (`gone`), one that offers to remove it. `onRemoved`
 * hears of a removal, so the cart can say so and take the focus the removed button had.
 */
export function CartLineRow({
  line,
  stock,
  gone = false,
  firstScent,
  onRemoved,
}: {
  line: CartLine
  stock?: StockState | null
  gone?: boolean
  /** The product's first scent, from the live catalogue: what a line without one is sold as. */
  firstScent?: string
  onRemoved: (name: string) => void
}) {
  const { product, quantity, selectedVariant } = line
  const id = `qty-${lineId(line)}`
  const remove = () => {
    removeFromCart(product.id, selectedVariant)
    onRemoved(selectedVariant ? `${product.name} (${selectedVariant})` : product.name)
  }
  // A stepper button that reaches its end is disabled, which would drop the focus of a keyboard pressing it
  // (a click of 0: Enter or Space). A tap or a mouse click leaves focus alone: on a phone the quantity box
  // taking it would open the keyboard over the cart.
  const step = (value: number, event: MouseEvent<HTMLButtonElement>) => {
    setQuantity(value)
    if (event.detail === 0 && (value <= 1 || value >= MAX_QUANTITY)) document.getElementById(id)?.focus()
  }
  // What the shopper is typing, while it is not (yet) a quantity: an emptied field stays empty, so typing 5
  // after clearing a 2 gives 5, not 25. Leaving the field shows the line's quantity again.
  const [typed, setTyped] = useState<string | null>(null)
  const setQuantity = (value: number) => {
    setTyped(null)
    setLineQuantity(product.id, value, selectedVariant)
  }
  const left = purchasable(stock, quantity)
  return (
    <li className="flex gap-4 p-4" data-cart-line={product.slug}>
      <img
        src={product.image}
        alt=""
        width={96}
        height={96}
        className="h-24 w-24 rounded-md border border-line object-cover"
      />
      <div className="flex flex-1 flex-wrap items-start justify-between gap-3">
        <div>
          {/* The name's link is 44 px tall for a thumb; pulled up into the line's padding so its text
              stays level with the top of the picture. */}
          <h3 className="-mt-3 font-bold">
            <a
              href={`/products/${product.slug}`}
              className="inline-flex min-h-11 items-center hover:underline"
            >
              {product.name}
            </a>
          </h3>
          {/* A line added without a scent (from a shop card) is sold as the product's first: said so. */}
          {(selectedVariant ?? firstScent) && (
            <p className="text-sm text-muted">Scent: {selectedVariant ?? firstScent}</p>
          )}
          <p className="text-sm text-muted">{formatCurrency(product.price)} each</p>
          <div className="mt-2 flex flex-wrap items-center gap-x-2 gap-y-1">
            <label htmlFor={id} className="sr-only">
              Quantity of {product.name}
            </label>
            {/* Every control at least 44 px (2.75rem) high and wide, as the shop's others: a thumb on a phone. */}
            <div className="inline-flex items-stretch rounded-md border border-line">
              <button
                type="button"
                className="min-h-11 min-w-11 px-3 text-lg disabled:opacity-40"
                aria-label={`Decrease quantity of ${product.name}`}
                disabled={quantity <= 1}
                onClick={(event) => step(quantity - 1, event)}
              >
                −
              </button>
              <input
                id={id}
                type="number"
                inputMode="numeric"
                min={1}
                max={MAX_QUANTITY}
                value={typed ?? quantity}
                className="min-h-11 w-14 border-x border-line bg-transparent py-1 text-center"
                // An emptied or zero field waits for a real number; the remove button is for removing.
                onChange={(event) => {
                  const text = event.target.value
                  const value = Number(text)
                  if (text !== '' && Number.isInteger(value) && value >= 1) setQuantity(value)
                  else setTyped(text)
                }}
                onBlur={() => setTyped(null)}
              />
              <button
                type="button"
                className="min-h-11 min-w-11 px-3 text-lg disabled:opacity-40"
                aria-label={`Increase quantity of ${product.name}`}
                disabled={quantity >= MAX_QUANTITY}
                onClick={(event) => step(quantity + 1, event)}
              >
                +
              </button>
            </div>
            <button
              type="button"
              className="inline-flex min-h-11 min-w-11 items-center px-1 text-sm font-bold text-danger underline"
              onClick={remove}
            >
              Remove<span className="sr-only"> {product.name}</span>
            </button>
          </div>
          {gone ? (
            <StockWarning line={line} left={null} onRemove={remove} />
          ) : (
            left < quantity && <StockWarning line={line} left={left} onRemove={remove} />
          )}
        </div>
        <p className="font-bold" data-line-total>
          {formatCents(unitCents(product) * quantity)}
        </p>
      </div>
    </li>
  )
}
