import { describeDiscount, discountCents } from '@core/rules/discounts'
import { formatCents, formatCurrency, MIN_CHARGE_CENTS } from '@core/rules/money'
import { cartPackageLabel } from '@core/rules/package'
import { amountToFreeShippingCents, formatWeight } from '@core/rules/shipping'
import { type FormEvent, useEffect, useState } from 'react'
import { useHydratedStore } from '../../components/shell/use-hydrated-store'
import { showToast } from '../toasts/store'
import { MAX_QUANTITY } from './cart-logic'
import { checkDiscount } from './discount'
import {
  type CartLine,
  cartLines,
  discountApplied,
  removeDiscount,
  removeFromCart,
  setLineQuantity,
} from './store'
import { cartTotals, unitCents } from './totals'

/** What the static HTML was rendered with; one constant so hydration sees a stable value. */
const NO_LINES: CartLine[] = []

const INVALID_FALLBACK = 'Please check your code and try again.'

function lineId(line: CartLine): string {
  return `${line.product.id}-${line.selectedVariant ?? ''}`.replace(/[^\w-]/g, '_')
}

/** The /cart page (docs/product.md#cart): lines, order summary, discount code and the way on to shipping. */
export default function CartView() {
  const lines = useHydratedStore(cartLines, NO_LINES)
  const discount = useHydratedStore(discountApplied, null)
  const [hydrated, setHydrated] = useState(false)
  const [code, setCode] = useState('')
  const [checking, setChecking] = useState(false)

  const totals = cartTotals(lines)
  const discountOff = discountCents(totals.subtotalCents, discount)
  const totalCents = totals.subtotalCents - discountOff
  const toFreeShipping = amountToFreeShippingCents(totalCents)

  // A saved code may have expired or stopped applying since it was accepted: ask once per visit.
  useEffect(() => {
    setHydrated(true)
    const saved = discountApplied.get()
    const current = cartLines.get()
    if (!saved || current.length === 0) return
    void checkDiscount(saved.code, cartTotals(current).subtotalCents).then((result) => {
      if (discountApplied.get()?.code !== saved.code) return
      if (result.kind === 'valid') discountApplied.set(result.terms)
      if (result.kind === 'invalid') {
        removeDiscount()
        showToast({
          title: 'Discount Removed',
          description: `${saved.code}: ${result.message ?? 'This code no longer applies to your order.'}`,
          variant: 'error',
        })
      }
    })
  }, [])

  async function applyDiscount(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const wanted = code.trim()
    if (!wanted || checking) return
    setChecking(true)
    const result = await checkDiscount(wanted, totals.subtotalCents)
    setChecking(false)
    if (result.kind === 'valid') {
      discountApplied.set(result.terms)
      setCode('')
      showToast({ title: 'Discount Applied!', description: describeDiscount(result.terms) })
    } else if (result.kind === 'invalid') {
      showToast({
        title: 'Invalid Discount Code',
        description: result.message ?? INVALID_FALLBACK,
        variant: 'error',
      })
    } else {
      showToast({
        title: 'Error',
        description: 'Failed to validate discount code. Please try again.',
        variant: 'error',
      })
    }
  }

  function continueToShipping() {
    // Read the store, not the render: another tab may have emptied the cart since.
    const current = cartLines.get()
    if (current.length === 0) {
      showToast({
        title: 'Empty Cart',
        description: 'Please add items to your cart before proceeding.',
        variant: 'error',
      })
      return
    }
    const subtotal = cartTotals(current).subtotalCents
    if (subtotal - discountCents(subtotal, discountApplied.get()) < MIN_CHARGE_CENTS) {
      showToast({
        title: 'Order Total Too Low',
        description:
          'Order total must be at least $0.50 after discounts. Please add more items or use a smaller discount.',
        variant: 'error',
      })
      return
    }
    window.location.assign('/shipping')
  }

  if (!hydrated) {
    // The cart lives in this browser only; keep the space steady until it has been read.
    return <p className="min-h-64 py-8 text-muted">Loading your cart…</p>
  }

  if (lines.length === 0) {
    return (
      <div className="rounded-lg border border-line bg-surface px-6 py-16 text-center">
        <h2 className="font-display text-2xl font-bold uppercase">Your cart is empty</h2>
        <p className="mt-2 text-muted">Add some products to get started</p>
        <a href="/shop" className="btn-primary mt-6">
          Continue Shopping
        </a>
      </div>
    )
  }

  return (
    <div className="grid gap-8 lg:grid-cols-3">
      <section aria-labelledby="cart-items-heading" className="lg:col-span-2">
        <h2 id="cart-items-heading" className="sr-only">
          Items in your cart
        </h2>
        <ul className="m-0 list-none divide-y divide-line rounded-lg border border-line bg-surface p-0">
          {lines.map((line) => (
            <CartLineRow key={lineId(line)} line={line} />
          ))}
        </ul>
      </section>

      <aside aria-labelledby="summary-heading" className="space-y-4">
        <div className="rounded-lg border border-line bg-surface p-5">
          <h2 id="summary-heading" className="font-display text-xl font-bold uppercase">
            Order Summary
          </h2>
          <dl className="mt-4 space-y-2" data-summary>
            <SummaryRow label="Items" value={String(totals.itemCount)} />
            <SummaryRow label="Subtotal" value={formatCents(totals.subtotalCents)} />
            <SummaryRow label="Total weight" value={formatWeight(totals.weightOz)} />
            <SummaryRow label="Shipping" value="Calculated at checkout" />
            <SummaryRow label="Package size" value={cartPackageLabel(totals.itemCount) ?? '—'} />
            {discount && (
              <SummaryRow label={`Discount (${discount.code})`} value={`−${formatCents(discountOff)}`} />
            )}
            <div className="flex justify-between border-t border-line pt-3 text-lg font-bold">
              <dt>Total</dt>
              <dd data-total>{formatCents(totalCents)}</dd>
            </div>
          </dl>

          {discount ? (
            <div className="mt-4 flex items-center justify-between gap-3 rounded-md border border-success p-3 text-sm">
              <span>
                Code <strong>{discount.code}</strong> applied
              </span>
              <button type="button" className="font-bold underline" onClick={removeDiscount}>
                Remove<span className="sr-only"> discount {discount.code}</span>
              </button>
            </div>
          ) : (
            <form className="mt-4" onSubmit={applyDiscount}>
              <label htmlFor="discount-code" className="block text-sm font-bold">
                Discount code
              </label>
              <div className="mt-1 flex gap-2">
                <input
                  id="discount-code"
                  className="field"
                  value={code}
                  autoComplete="off"
                  autoCapitalize="characters"
                  spellCheck={false}
                  onChange={(event) => setCode(event.target.value)}
                />
                <button type="submit" className="btn-outline !px-4 !py-2" disabled={checking}>
                  {checking ? 'Checking…' : 'Apply'}
                </button>
              </div>
            </form>
          )}

          {toFreeShipping > 0 && (
            <p className="mt-4 text-sm font-bold text-brand">
              Add {formatCents(toFreeShipping)} to qualify for free shipping
            </p>
          )}

          <button type="button" className="btn-primary mt-5 w-full" onClick={continueToShipping}>
            Continue to Shipping
          </button>
        </div>

        <ul className="m-0 list-none space-y-2 p-0 text-sm text-muted">
          <li>Free shipping on orders over $35</li>
          <li>30-day returns for unused products</li>
          <li>Secure checkout via our card payment provider</li>
        </ul>
      </aside>
    </div>
  )
}

function SummaryRow({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-muted">{label}</dt>
      <dd className="text-right font-semibold">{value}</dd>
    </div>
  )
}

function CartLineRow({ line }: { line: CartLine }) {
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
