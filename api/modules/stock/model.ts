import type { StockState } from '@core/rules/stock'

/** A cart or order line as stock counts it: the variant is the stock's (core/rules/stock.ts `stockVariant`). */
/**
 * Staff's edit of one figure: the units on the shelf (null: stop counting), or units received, added to
 * the figure as it is then, so the units paid orders are owed (a figure below 0) are not wiped by a recount.
 */
export type StaffFigure = number | null | { received: number }

export const isReceived = (figure: StaffFigure): figure is { received: number } =>
  figure !== null && typeof figure === 'object'

export interface StockLine {
  productId: number
  /** '' for a product without variants. */
  variant: string
  quantity: number
  /** How the line is named to people: 'Hammered Citrus (Cedar Shop)'. */
  label: string
}

/** A line as a cart, a checkout session or an order holds it: its variant as the shopper chose it. */
export interface LineInput {
  productId: number
  /** The product's name as the line names it (a session's or cart's line); else the catalogue's. */
  name?: string
  variant?: string | null
  quantity: number
  /**
   * The stock the line draws on as checkout named it, kept on the session and the order line: that stock,
   * whatever the content lists now; null: none (its product or scent was unknown). Absent (a session
   * stored before it was kept): worked out from the catalogue now.
   */
  stockVariant?: string | null
}

/** One product's or variant's counted stock: on the shelf, and what open checkouts leave of it. */
export interface StockLevel {
  onHand: number
  /** Units live holds take: what open checkouts hold now. */
  held: number
  available: number
}

/**
 * Every counted product and variant at one moment, as the catalogue answer and the dashboard show it.
 * `key` changes whenever a figure does, so an answer built from it is rebuilt only then.
 */
export interface StockSnapshot {
  key: string
  level(productId: number, variant: string): StockLevel | null
  state(productId: number, variant: string): StockState
  /** The product's counted variants ('' for its own figure), listed in the catalogue or not, in name order. */
  counted(productId: number): readonly string[]
}

/**
 * A checkout request still in flight after this is one a dying process left between holding its units and
 * storing its session: the sweep gives its holds back (api/modules/checkout/in-flight.ts), so a crash frees
 * them within minutes, not after a payment session's whole life. Also how long a hand-over may last.
 */
export const IN_FLIGHT_LIMIT_MS = 15 * 60 * 1000

/** The stock figures in hand are read again after this; sooner on this instance when staff change them. */
export const SNAPSHOT_MS = 1000

/** What the reservation guard (migration 0017's trigger) aborts with. */
export const SHORT_MARKER = 'stock: too few left'

/** Whether `error` is the reservation guard refusing: some line asked for more than was left. */
export function isShortage(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof Error && current.message.includes(SHORT_MARKER)) return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}

export const stockKey = (productId: number, variant: string) => `${productId}\u0000${variant}`
