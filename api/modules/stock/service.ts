/**
 * Stock: units on the shelf per product and variant, held for open checkouts, sold with paid orders, put
 * back by cancels and refunds (docs/decisions/026-stock-reserved-at-checkout.md). The figures and staff's
 * edits are in levels.ts; the statements other modules' transactions run are in reservations.ts.
 */
import { lineLabel } from '@core/rules/catalog'
import {
  formerVariants,
  parseStock,
  RECEIVED_MESSAGE,
  STOCK_MESSAGE,
  shortageMessage,
  stockVariant,
} from '@core/rules/stock'
import type { SQL } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import type { Clock } from '../../lib/clock'
import { conflict, type DomainError, invalid, notFound } from '../../lib/domain-errors'
import type { Statement } from '../../lib/statements'
import type { CatalogProduct, CatalogService } from '../catalog/service'
import { createLevels, KEY_OF_ANOTHER_SAVE_MESSAGE, receiptFingerprint, receivedOf } from './levels'
import { isShortage, type LineInput, type StaffFigure, type StockLine } from './model'
import { createReservations, type RestockLine } from './reservations'

export {
  IN_FLIGHT_LIMIT_MS,
  isShortage,
  type LineInput,
  type StockLevel,
  type StockLine,
  type StockSnapshot,
} from './model'

export const UNKNOWN_OPTION_MESSAGE = 'Please choose a product option from the list.'
const PRODUCT_NOT_FOUND = 'Product not found.'

/** An order line going back on the shelf: its variant as sold, and how many (a number, or SQL for one). */
export interface ReturnedLine extends Omit<LineInput, 'quantity'> {
  quantity: number | SQL<number>
}

export interface StockServiceDeps {
  db: Database
  clock: Clock
  catalog: Pick<CatalogService, 'byId'>
}

/** Adds a line to `lines`, or to the line of the same product and variant already there. */
function merge(lines: StockLine[], line: StockLine): void {
  const same = lines.find((other) => other.productId === line.productId && other.variant === line.variant)
  if (same) same.quantity += line.quantity
  else lines.push(line)
}

/** One figure of staff's edit: units (or null), or `{ received: n }`; `prefix` names it in the message. */
function staffFigure(value: unknown, prefix: string): StaffFigure {
  if (typeof value === 'object' && value !== null && 'received' in value) {
    const units = parseStock((value as { received: unknown }).received)
    if (typeof units !== 'number' || units < 1) throw invalid(`${prefix}${RECEIVED_MESSAGE}`)
    return { received: units }
  }
  const units = parseStock(value)
  if (units === undefined) throw invalid(`${prefix}${STOCK_MESSAGE}`)
  return units
}

/**
 * Reads staff's edit for `product`: `{ stock: figure }` for a product without variants,
 * `{ variants: { name: figure, … } }` for one with them (only the named ones change). `variants` may also
 * name a former variant of either (`former`: counted, no longer listed by the content; '' for the product's
 * own figure once it has scents), so staff can move its units or stop counting it. A figure is the units
 * on the shelf, null to stop counting, or `{ received: n }` to add units that came in.
 */
function staffLevels(
  product: CatalogProduct,
  body: unknown,
  former: readonly string[],
): Map<string, StaffFigure> {
  const edit = (typeof body === 'object' && body !== null ? body : {}) as {
    stock?: unknown
    variants?: unknown
  }
  const scentless = product.variants.length === 0
  const noScents = () => invalid(`${product.name} has no scents: send { "stock": units }.`)
  const levels = new Map<string, StaffFigure>()
  const variants = edit.variants
  const named = typeof variants === 'object' && variants !== null && !Array.isArray(variants)
  if (scentless) {
    if (variants !== undefined && !named) throw noScents()
    if ('stock' in edit) levels.set('', staffFigure(edit.stock, ''))
    else if (!named) throw invalid(`Send { "stock": units } (${STOCK_MESSAGE})`)
  } else if (!named) {
    throw invalid(
      `${product.name} comes in scents: send { "variants": { "${product.variants[0]}": units } }.`,
    )
  }
  for (const [name, value] of Object.entries(named ? variants : {})) {
    if (!former.includes(name)) {
      if (scentless) throw noScents()
      if (!product.variants.includes(name)) {
        throw invalid(
          `${product.name} has no scent "${name.slice(0, 60)}": use one of ${product.variants.join(', ')}.`,
        )
      }
    }
    levels.set(name, staffFigure(value, `${name || product.name}: `))
  }
  if (levels.size === 0) throw scentless ? noScents() : invalid(`Name at least one scent of ${product.name}.`)
  return levels
}

export function createStockService(deps: StockServiceDeps) {
  const { clock, catalog } = deps
  const levels = createLevels(deps)
  const reservations = createReservations(deps)

  /** A key an earlier save of other units received recorded: 409, as a refund's key sent for another refund. */
  async function refuseKeyOfAnotherSave(
    productId: number,
    edit: ReadonlyMap<string, StaffFigure>,
    key: string,
  ) {
    const earlier = await levels.receiptOf(key)
    if (earlier === null) return
    const received = receivedOf(edit)
    if (received.length > 0 && earlier !== receiptFingerprint(productId, received)) {
      throw conflict(KEY_OF_ANOTHER_SAVE_MESSAGE)
    }
  }

  /** Units received add to a count: a figure nobody counts (it sells without limit) takes none. */
  async function refuseReceivedUncounted(product: CatalogProduct, edit: ReadonlyMap<string, StaffFigure>) {
    const received = receivedOf(edit)
    if (received.length === 0) return
    const lines = received.map(([variant]) => ({ productId: product.id, variant, quantity: 0, label: '' }))
    const now = await levels.fresh(lines)
    for (const [variant] of received) {
      if (now.level(product.id, variant)) continue
      const label = lineLabel({ name: product.name, variant: variant || null })
      throw invalid(`${label} is not counted: enter the units on the shelf to start counting it.`)
    }
  }

  /**
   * The variant stock counts a line on, or null where none does (an unknown product, a scent it lacks):
   * the one checkout named when the line carries it, listed or not, so a content edit since (scents
   * reordered, renamed, added or removed, the product taken off sale) moves no units to another shelf and
   * leaves none unmoved; else as the catalogue maps it now.
   */
  async function variantOf(line: Pick<LineInput, 'productId' | 'variant' | 'stockVariant'>) {
    if (line.stockVariant !== undefined) return line.stockVariant
    const product = await catalog.byId(line.productId)
    return product ? stockVariant(product.variants, line.variant) : null
  }

  /** Returned lines on the stock variants they were sold from (the order line keeps it). */
  async function shelfLines(lines: readonly ReturnedLine[]): Promise<RestockLine[]> {
    const onShelf: RestockLine[] = []
    for (const line of lines) {
      const variant = await variantOf(line)
      if (variant !== null) onShelf.push({ productId: line.productId, variant, quantity: line.quantity })
    }
    return onShelf
  }

  /**
   * Lines as stock counts them: each on its product's variant, lines of the same one added together.
   * `strict` (a checkout) refuses an unknown product or a variant the product does not have; otherwise
   * (an order paid or returned) such a line is left out, as nothing counts it.
   */
  async function linesOf(
    lines: readonly LineInput[],
    options: { strict?: boolean } = {},
  ): Promise<StockLine[]> {
    const counted: StockLine[] = []
    for (const line of lines) {
      const variant = await variantOf(line)
      const name = line.name ?? (await catalog.byId(line.productId))?.name
      if (variant === null || name === undefined) {
        if (options.strict) throw invalid(UNKNOWN_OPTION_MESSAGE)
        continue
      }
      const label = lineLabel({ name, variant: variant || null })
      merge(counted, { productId: line.productId, variant, quantity: line.quantity, label })
    }
    return counted
  }

  return {
    linesOf,

    /**
     * Lines with the stock each draws on named (`stockVariant`): as checkout named it, or, on a session
     * stored before it was kept, as the catalogue maps it now. What a paid order's lines keep, so its
     * cancel or refund puts units back where the payment took them.
     */
    async named<Line extends LineInput>(lines: readonly Line[]): Promise<Line[]> {
      const named: Line[] = []
      for (const line of lines) named.push({ ...line, stockVariant: await variantOf(line) })
      return named
    },
    ...reservations,
    snapshot: levels.snapshot,
    current: levels.current,
    /** Holds that ran out, marked released (the job runner's sweep); answers how many. */
    releaseExpired: () => reservations.releaseExpired(clock.now()),

    /**
     * What a checkout refused by the reservation guard is told: the first line that asks for more than
     * is left, by name, and how many are left. The units held under `ownKey` (the cart's earlier session,
     * whose holds the checkout was taking over: docs/decisions/032) are left for it. Null when `error` is
     * not the guard's.
     */
    async refusal(
      error: unknown,
      lines: readonly StockLine[],
      ownKey?: string | null,
    ): Promise<DomainError | null> {
      if (!isShortage(error)) return null
      const now = await levels.fresh(lines)
      const own = ownKey ? await reservations.heldUnder(ownKey, clock.now()) : []
      for (const line of lines) {
        const level = now.level(line.productId, line.variant)
        const mine = own.find((held) => held.productId === line.productId && held.variant === line.variant)
        // As the guard counts: the shelf less what other checkouts hold. Not the shelf's free units plus
        // this cart's own, which staff counting the shelf below the holds would make too many.
        const available = level ? Math.max(0, level.onHand - (level.held - (mine?.units ?? 0))) : 0
        if (level && available < line.quantity) {
          return conflict(shortageMessage(line.label, available), {
            shortage: { productId: line.productId, variant: line.variant, available },
          })
        }
      }
      // Freed again in the moment between the refusal and this read: trying again may work.
      return conflict('Some items in your cart were just taken by other shoppers. Please try again.')
    },

    /**
     * Statements that put an order's lines back on the shelf, for a cancel's or a refund's transaction:
     * counted products and variants only (a line without a variant is the product's first, as when it
     * was sold). A quantity may be SQL worked out in that transaction.
     */
    async restockStatements(
      lines: readonly ReturnedLine[],
      options: { when?: SQL } = {},
    ): Promise<Statement[]> {
      return reservations.restockStatements(await shelfLines(lines), clock.now(), options.when)
    },

    /** SQL: true when any of these lines is of a product and variant someone counts (where units would move). */
    async anyCountedSql(lines: readonly ReturnedLine[]): Promise<SQL> {
      return reservations.anyCountedSql(await shelfLines(lines))
    },

    /**
     * Staff set a product's units on the shelf (docs/product.md#staff-calls); null stops counting. Units
     * received under a `receiptKey` already recorded are not added again.
     */
    async setLevels(
      productId: number,
      body: unknown,
      receiptKey: string | null = null,
    ): Promise<CatalogProduct> {
      const product = await catalog.byId(productId)
      if (!product) throw notFound(PRODUCT_NOT_FOUND)
      const former = formerVariants(product.variants, await levels.counted(product.id))
      const edit = staffLevels(product, body, former)
      await refuseReceivedUncounted(product, edit)
      if (receiptKey) await refuseKeyOfAnotherSave(product.id, edit, receiptKey)
      await levels.set(product.id, edit, receiptKey, new Set(former))
      return product
    },
  }
}

export type StockService = ReturnType<typeof createStockService>
