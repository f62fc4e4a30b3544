import { formatCents, formatCurrency } from '@core/rules/money'
import { MAX_QUANTITY } from './cart-logic'
import { removeFromCart, setLineQuantity } from './checkout-store'
import type { CartLine } from './store'
import { unitCents } from './totals'

/** A line's key and the stem of its quantity input's id. */
export function lineId(line: CartLine): string {
  return `${line.product.id}-${line.selectedVariant ?? ''}`.replace(/[^\w-]/g, '_')
}

/** One line of the cart: the product, its quantity stepper, Remove and the line total. */
export function CartLineRow({ line }: { line: CartLine }) {
  const { product, quantity, selectedVariant } = line
  const id = `qty-${lineId(line)}`
  const setQuantity = (value: number) => setLineQuantity(product.id, value, selectedVariant)
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
          <h3 className="font-bold">
            <a href={`/products/${product.slug}`} className="hover:underline">
              {product.name}
            </a>
          </h3>
          {selectedVariant && <p className="text-sm text-muted">Scent: {selectedVariant}</p>}
          <p className="text-sm text-muted">{formatCurrency(product.price)} each</p>
          <div className="mt-2 flex items-center gap-3">
            <label htmlFor={id} className="sr-only">
              Quantity of {product.name}
            </label>
            <div className="inline-flex items-stretch rounded-md border border-line">
              <button
                type="button"
                className="px-3 text-lg disabled:opacity-40"
                aria-label={`Decrease quantity of ${product.name}`}
                disabled={quantity <= 1}
                onClick={() => setQuantity(quantity - 1)}
              >
                −
              </button>
              <input
                id={id}
                type="number"
                inputMode="numeric"
                min={1}
                max={MAX_QUANTITY}
                value={quantity}
                className="w-14 border-x border-line bg-transparent py-1 text-center"
                // An emptied or zero field waits for a real number; the remove button is for removing.
                onChange={(event) => {
                  const value = Number(event.target.value)
                  if (value >= 1) setQuantity(value)
                }}
              />
              <button
                type="button"
                className="px-3 text-lg disabled:opacity-40"
                aria-label={`Increase quantity of ${product.name}`}
                disabled={quantity >= MAX_QUANTITY}
                onClick={() => setQuantity(quantity + 1)}
              >
                +
              </button>
            </div>
            <button
              type="button"
              className="text-sm font-bold text-danger underline"
              onClick={() => removeFromCart(product.id, selectedVariant)}
            >
              Remove<span className="sr-only"> {product.name}</span>
            </button>
          </div>
        </div>
        <p className="font-bold" data-line-total>
          {formatCents(unitCents(product) * quantity)}
        </p>
      </div>
    </li>
  )
}
