import { useEffect, useState } from 'react'
import { useHydratedStore } from '../../components/shell/use-hydrated-store'
import { type LiveProduct, lineStock, liveCatalog } from '../catalog/stock'
import { showToast } from '../toasts/store'
import { CartLineRow, lineId } from './CartLineRow'
import { CartSummary } from './CartSummary'
import { fitCartToCatalogue } from './catalogue-now'
import { discountApplied, removeDiscount } from './checkout-store'
import { checkDiscount } from './discount'
import { confirmOpenSession, withOwnHold } from './open-session'
import { type CartLine, cartLines } from './store'
import { cartTotals } from './totals'

/** What the static HTML was rendered with; one constant so hydration sees a stable value. */
const NO_LINES: CartLine[] = []

/** How long the cart waits for what is left before it shows without it (checkout checks again anyway). */
const STOCK_WAIT_MS = 2500

/**
 * The catalogue's live stock, or [] when it does not come in time: the lines show as they are. The cart's
 * open payment session is confirmed meanwhile, so its units count as the cart's only while it is open.
 */
function stockInTime(): Promise<readonly LiveProduct[]> {
  const late = new Promise<LiveProduct[]>((resolve) => setTimeout(() => resolve([]), STOCK_WAIT_MS))
  const stock = Promise.all([liveCatalog().catch(() => []), confirmOpenSession()]).then(([live]) => live)
  return Promise.race([stock, late])
}

/** A saved code may have expired or stopped applying since it was accepted: asked once per visit. */
function recheckSavedDiscount() {
  const saved = discountApplied.get()
  const current = cartLines.get()
  if (!saved || current.length === 0) return
  // A cart below the code's minimum keeps the code until it reaches it again (docs/product.md#cart): the
  // question is whether the code still applies at all, so it names at least that minimum.
  const subtotal = Math.max(cartTotals(current).subtotalCents, saved.minSubtotalCents ?? 0)
  void checkDiscount(saved.code, subtotal).then((result) => {
    if (discountApplied.get()?.code !== saved.code) return
    if (result.kind === 'valid') discountApplied.set(result.terms)
    // Refused only for a minimum this cart (or the code's, raised since) does not reach: the code still
    // applies, so it stays, counting once the cart reaches that minimum.
    else if (result.kind === 'invalid' && result.minSubtotalCents !== undefined)
      discountApplied.set({ ...saved, minSubtotalCents: result.minSubtotalCents })
    else if (result.kind === 'invalid') {
      removeDiscount()
      showToast({
        title: 'Discount Removed',
        description: `${saved.code}: ${result.message ?? 'This code no longer applies to your order.'}`,
        variant: 'error',
      })
    }
  })
}

/** The /cart page (docs/product.md#cart): lines, order summary, discount code and the way on to shipping. */
export default function CartView() {
  const lines = useHydratedStore(cartLines, NO_LINES)
  const discount = useHydratedStore(discountApplied, null)
  const [live, setLive] = useState<readonly LiveProduct[] | null>(null)
  // The line just removed: said in the status line, and the focus its Remove button had goes to the list's
  // heading (or, once the cart is empty, to the heading that says so).
  const [removed, setRemoved] = useState<{ name: string } | null>(null)
  useEffect(() => {
    if (!removed) return
    ;(document.getElementById('cart-items-heading') ?? document.getElementById('cart-empty-heading'))?.focus()
  }, [removed])
  const status = (
    <p role="status" className="sr-only">
      {removed ? `${removed.name} removed from your cart.` : ''}
    </p>
  )

  useEffect(() => {
    recheckSavedDiscount()
    // The lines show once what is left is known, so a warning under a line never pushes the page about.
    void stockInTime().then((products) => {
      fitCartToCatalogue(products)
      setLive(products)
    })
  }, [])

  if (!live) {
    // The cart lives in this browser only; keep the space steady until it has been read.
    return <p className="min-h-64 py-8 text-muted">Loading your cart…</p>
  }

  if (lines.length === 0) {
    return (
      <div className="rounded-lg border border-line bg-surface px-6 py-16 text-center">
        {status}
        <h2 id="cart-empty-heading" tabIndex={-1} className="font-display text-2xl font-bold uppercase">
          Your cart is empty
        </h2>
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
        {status}
        <h2 id="cart-items-heading" tabIndex={-1} className="sr-only">
          Items in your cart
        </h2>
        <ul className="m-0 list-none divide-y divide-line rounded-lg border border-line bg-surface p-0">
          {lines.map((line) => {
            const product = live.find((each) => each.id === line.product.id)
            return (
              <CartLineRow
                key={lineId(line)}
                line={line}
                onRemoved={(name) => setRemoved({ name })}
                // Listed no more (a draft again, or its file removed): checkout would refuse the cart for it.
                gone={live.length > 0 && !product}
                firstScent={product?.variants[0]?.name}
                // The units the cart's own open session holds are the cart's (docs/decisions/032).
                stock={withOwnHold(lineStock(product, line.selectedVariant), line)}
              />
            )
          })}
        </ul>
      </section>
      <CartSummary lines={lines} discount={discount} />
    </div>
  )
}
