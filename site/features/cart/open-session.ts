/**
 * The payment session this cart opened last (docs/decisions/032-one-open-session-per-cart.md). Its id goes
 * with the cart's discount check, its rates and its next checkout, so what the session holds (the code's
 * use, the units) counts as the cart's own; the units it holds are added back to what the cart shows as
 * left. Kept in local storage beside the cart, and forgotten once paid or past a payment session's life.
 */

import type { StockState } from '@core/rules/stock-note'
import { persistentAtom } from '@nanostores/persistent'
import { ApiError, apiRequest } from '../../lib/api'
import { removedWhenNull } from '../../lib/removed-when-null'
import { safeJson } from '../../lib/storage'
import type { CartLine } from './store'

/** A cart line's units the session holds, by the line's product and scent. */
interface HeldLine {
  productId: number
  variant: string | null
  quantity: number
}

interface OpenSession {
  id: string
  openedAt: number
  held: HeldLine[]
}

/** A payment session can be paid for 24 hours; after that the server holds nothing for it. */
const SESSION_LIFE_MS = 24 * 60 * 60 * 1000

function isOpenSession(value: unknown): value is OpenSession {
  if (typeof value !== 'object' || value === null) return false
  const session = value as Partial<OpenSession>
  return typeof session.id === 'string' && typeof session.openedAt === 'number' && Array.isArray(session.held)
}

/** Removed from storage when there is none. */
const openSession = persistentAtom<OpenSession | null>(
  'checkoutSession',
  null,
  removedWhenNull(safeJson('checkoutSession', (value) => (isOpenSession(value) ? value : null), null)),
)

export function rememberOpenSession(id: string, lines: readonly CartLine[]): void {
  openSession.set({
    id,
    openedAt: Date.now(),
    held: lines.map((line) => ({
      productId: line.product.id,
      variant: line.selectedVariant ?? null,
      quantity: line.quantity,
    })),
  })
}

export function forgetOpenSession(): void {
  openSession.set(null)
}

function current(): OpenSession | null {
  const session = openSession.get()
  return session && Date.now() - session.openedAt < SESSION_LIFE_MS ? session : null
}

/**
 * Asks whether the remembered session can still be paid, and forgets it when not (paid without the success
 * page seen, ended for a first order, or expired): its units are then no longer the cart's. Kept when the
 * server cannot be asked.
 */
export async function confirmOpenSession(): Promise<void> {
  const session = current()
  if (!session) return
  try {
    const answer = await apiRequest<{ status: string }>(
      'GET',
      `/api/checkout/session/${encodeURIComponent(session.id)}/status`,
    )
    if (answer.status !== 'open' && openSession.get()?.id === session.id) forgetOpenSession()
  } catch (error) {
    // A session the shop does not know is no one's; otherwise unknown: kept, as checkout decides anyway.
    if (error instanceof ApiError && error.status === 404 && openSession.get()?.id === session.id) {
      forgetOpenSession()
    }
  }
}

/** `{ open_session }` for a request body, or nothing when the cart has no session open. */
export function openSessionField(): { open_session?: string } {
  const session = current()
  return session ? { open_session: session.id } : {}
}

/** What is left for `line`, counting the units the cart's own open session holds of it as the cart's. */
export function withOwnHold(stock: StockState | null, line: CartLine): StockState | null {
  if (!stock?.tracked || stock.available === null) return stock
  const variant = line.selectedVariant ?? null
  const own = (current()?.held ?? [])
    .filter((held) => held.productId === line.product.id && held.variant === variant)
    .reduce((sum, held) => sum + held.quantity, 0)
  return own > 0 ? { ...stock, available: stock.available + own } : stock
}
