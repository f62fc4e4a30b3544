/**
 * The stock figures: what each counted product and variant has on the shelf and what is free of it now,
 * read for the catalogue answer and the dashboard (at most every second per instance), and set by staff.
 */
import { MAX_STOCK, type StockState } from '@core/rules/stock'
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { stockLevels, stockReceipts, stockReservations } from '../../../db/schema/stock'
import type { Clock } from '../../lib/clock'
import { conflict } from '../../lib/domain-errors'
import { errorMessage } from '../../lib/log'
import { runTogether } from '../../lib/statements'
import {
  isReceived,
  SNAPSHOT_MS,
  type StaffFigure,
  type StockLevel,
  type StockLine,
  type StockSnapshot,
  stockKey,
} from './model'

interface LevelsDeps {
  db: Database
  clock: Clock
}

interface LevelRow {
  productId: number
  variant: string
  onHand: number
  held: number
}

const NOT_COUNTED: StockState = { tracked: false, available: null }

/** Counted rows with what live reservations hold of each, at `now`; only `lines`' rows when given. */
async function readLevels(db: Database, now: Date, lines?: readonly StockLine[]): Promise<LevelRow[]> {
  const only =
    lines === undefined
      ? sql`1`
      : lines.length === 0
        ? sql`0`
        : sql.join(
            lines.map((line) => sql`(l.product_id = ${line.productId} and l.variant = ${line.variant})`),
            sql` or `,
          )
  return db.all<LevelRow>(sql`select l.product_id as productId, l.variant as variant, l.on_hand as onHand,
      coalesce((select sum(r.quantity) from ${stockReservations} r
        where r.product_id = l.product_id and r.variant = l.variant and r.status = 'reserved'
          and r.expires_at > ${now.getTime()}), 0) as held
    from ${stockLevels} l
    where l.on_hand is not null and (${only})
    order by l.product_id, l.variant`)
}

function snapshotOf(rows: readonly LevelRow[]): StockSnapshot {
  const levels = new Map<string, StockLevel>()
  const byProduct = new Map<number, string[]>()
  for (const row of rows) {
    const variants = byProduct.get(row.productId)
    if (variants) variants.push(row.variant)
    else byProduct.set(row.productId, [row.variant])
    // Staff may count fewer than open checkouts hold: nothing is free then, never less than nothing.
    levels.set(stockKey(row.productId, row.variant), {
      onHand: row.onHand,
      held: row.held,
      available: Math.max(0, row.onHand - row.held),
    })
  }
  return {
    key: JSON.stringify(rows.map((row) => [row.productId, row.variant, row.onHand, row.held])),
    level: (productId, variant) => levels.get(stockKey(productId, variant)) ?? null,
    state(productId, variant) {
      const level = levels.get(stockKey(productId, variant))
      return level ? { tracked: true, available: level.available } : NOT_COUNTED
    },
    counted: (productId) => byProduct.get(productId) ?? [],
  }
}

/** The units received of a save, by variant: what its receipt's fingerprint names. */
type Received = readonly (readonly [variant: string, units: number])[]

/** The product and its figures received, in one text: the same save gives the same text. */
export function receiptFingerprint(productId: number, received: Received): string {
  return JSON.stringify([productId, [...received].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))])
}

export const KEY_OF_ANOTHER_SAVE_MESSAGE =
  'This Idempotency-Key was used for a different save of units received.'

/**
 * The receipt of a save with units received: its key recorded with a nonce of this request, only if
 * the key is not there already and every variant received is counted (else the save adds nothing and
 * the key stays free for the save made again), and SQL true only for the request that recorded it.
 * `refuseOther` aborts the whole save when the key holds another save's receipt (two saves sent at once
 * under one key, both past the service's check): the key inserted again breaks its uniqueness.
 */
function receiptStatements(db: Database, productId: number, key: string, received: Received, now: Date) {
  const nonce = crypto.randomUUID()
  const fingerprint = receiptFingerprint(productId, received)
  const variants = received.map(([variant]) => variant)
  const counted = sql`(select count(*) from ${stockLevels} where ${stockLevels.productId} = ${productId}
    and ${inArray(stockLevels.variant, variants)} and ${stockLevels.onHand} is not null) = ${variants.length}`
  return {
    record: db.run(sql`insert into ${stockReceipts} (key, product_id, fingerprint, nonce, created_at)
      select ${key}, ${productId}, ${fingerprint}, ${nonce}, ${now.getTime()}
      where ${counted}
      on conflict (key) do nothing`),
    refuseOther: db.run(sql`insert into ${stockReceipts} (key, product_id, fingerprint, nonce, created_at)
      select key, product_id, fingerprint, nonce, created_at from ${stockReceipts}
      where ${stockReceipts.key} = ${key} and ${stockReceipts.fingerprint} <> ${fingerprint}`),
    recordedHere: sql`exists (select 1 from ${stockReceipts} where ${stockReceipts.key} = ${key} and ${stockReceipts.nonce} = ${nonce})`,
  }
}

/** Whether a save failed on `refuseOther` (the receipts' unique key). */
function isOtherSavesKey(error: unknown): boolean {
  const text = `${errorMessage(error)} ${errorMessage((error as { cause?: unknown } | null)?.cause)}`
  return /UNIQUE constraint failed: stock_receipts\.key/.test(text)
}

/** The units received of staff's edit, by variant. */
export function receivedOf(levels: ReadonlyMap<string, StaffFigure>): Received {
  return [...levels].flatMap(([variant, figure]) =>
    isReceived(figure) ? [[variant, figure.received] as const] : [],
  )
}

export function createLevels({ db, clock }: LevelsDeps) {
  let snapshot: Promise<StockSnapshot> | null = null
  let readAt = Number.NEGATIVE_INFINITY

  /**
   * Every counted figure, read again when the one in hand is a second old (reservations run out with
   * time, and other instances sell): one small query a second at most, however many ask.
   */
  function inHand(): Promise<StockSnapshot> {
    const now = clock.now()
    const age = now.getTime() - readAt
    if (!snapshot || age >= SNAPSHOT_MS || age < 0) {
      readAt = now.getTime()
      const reading = readLevels(db, now).then(snapshotOf)
      snapshot = reading
      // A failed read is not kept: the next caller asks the database again.
      reading.catch(() => {
        if (snapshot === reading) snapshot = null
      })
    }
    return snapshot
  }

  return {
    snapshot: inHand,

    /**
     * Every counted figure as it is now, for staff counting the shelf: a figure a second old could be one
     * a sale on another instance, or a count written beside the shop, has changed since. Kept as the
     * snapshot the shoppers' pages read.
     */
    current(): Promise<StockSnapshot> {
      snapshot = null
      return inHand()
    },

    /**
     * The fingerprint an earlier save under `key` recorded, or null when none did: the same key sent with
     * a different save is refused before anything is written.
     */
    async receiptOf(key: string): Promise<string | null> {
      const [row] = await db
        .select({ fingerprint: stockReceipts.fingerprint })
        .from(stockReceipts)
        .where(eq(stockReceipts.key, key))
      return row?.fingerprint ?? null
    },

    /** The product's counted variants now ('' for its own figure), listed in the catalogue or not. */
    async counted(productId: number): Promise<string[]> {
      const rows = await db
        .select({ variant: stockLevels.variant })
        .from(stockLevels)
        .where(and(eq(stockLevels.productId, productId), isNotNull(stockLevels.onHand)))
      return rows.map((row) => row.variant)
    },

    /** The figures in hand are stale: staff changed them here. */
    forget(): void {
      snapshot = null
    },

    /** The lines' figures now, read fresh: what a refused checkout is told. */
    async fresh(lines: readonly StockLine[]): Promise<StockSnapshot> {
      return snapshotOf(await readLevels(db, clock.now(), lines))
    },

    /**
     * Sets each variant's units on the shelf (null: stop counting), or adds the units received to its
     * figure as it is in the transaction (up to MAX_STOCK, never lowering it), all in one transaction. With
     * a `receiptKey`, units received are added only by the request that records the key first. A `former`
     * variant (no longer listed) is set only while still counted: one stopped meanwhile is not counted again.
     */
    async set(
      productId: number,
      levels: ReadonlyMap<string, StaffFigure>,
      receiptKey: string | null,
      former: ReadonlySet<string> = new Set(),
    ): Promise<void> {
      const now = clock.now()
      const received = receivedOf(levels)
      const receipt =
        receiptKey && received.length > 0 ? receiptStatements(db, productId, receiptKey, received, now) : null
      const figures = [...levels].map(([variant, figure]) => {
        if (isReceived(figure)) {
          const added = sql`min(${stockLevels.onHand} + ${figure.received}, ${MAX_STOCK})`
          return db
            .update(stockLevels)
            .set({ onHand: sql`max(${stockLevels.onHand}, ${added})`, updatedAt: now })
            .where(
              and(
                eq(stockLevels.productId, productId),
                eq(stockLevels.variant, variant),
                isNotNull(stockLevels.onHand),
                receipt?.recordedHere,
              ),
            )
        }
        if (former.has(variant)) {
          return db
            .update(stockLevels)
            .set({ onHand: figure, updatedAt: now })
            .where(
              and(
                eq(stockLevels.productId, productId),
                eq(stockLevels.variant, variant),
                isNotNull(stockLevels.onHand),
              ),
            )
        }
        return db
          .insert(stockLevels)
          .values({ productId, variant, onHand: figure, updatedAt: now })
          .onConflictDoUpdate({
            target: [stockLevels.productId, stockLevels.variant],
            set: { onHand: figure, updatedAt: now },
          })
      })
      try {
        await runTogether(db, [...(receipt ? [receipt.record, receipt.refuseOther] : []), ...figures])
      } catch (error) {
        if (receipt && isOtherSavesKey(error)) throw conflict(KEY_OF_ANOTHER_SAVE_MESSAGE)
        throw error
      }
      snapshot = null
    },
  }
}
