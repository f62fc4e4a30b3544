/**
 * The stock figures: what each counted product and variant has on the shelf and what is free of it now,
 * read for the catalogue answer and the dashboard (at most every second per instance), and set by staff.
 */
import { MAX_STOCK, type StockState } from '@core/rules/stock'
import { and, eq, isNotNull, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { stockLevels, stockReservations } from '../../../db/schema/stock'
import type { Clock } from '../../lib/clock'
import { runTogether } from '../../lib/statements'
import {
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
  for (const row of rows) {
    // Staff may count fewer than open checkouts hold: nothing is free then, never less than nothing.
    levels.set(stockKey(row.productId, row.variant), {
      onHand: row.onHand,
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
  }
}

export function createLevels({ db, clock }: LevelsDeps) {
  let snapshot: Promise<StockSnapshot> | null = null
  let readAt = Number.NEGATIVE_INFINITY

  return {
    /**
     * Every counted figure, read again when the one in hand is a second old (reservations run out with
     * time, and other instances sell): one small query a second at most, however many ask.
     */
    snapshot(): Promise<StockSnapshot> {
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
     * figure as it is in the transaction (never past MAX_STOCK), all in one transaction.
     */
    async set(productId: number, levels: ReadonlyMap<string, StaffFigure>): Promise<void> {
      const now = clock.now()
      await runTogether(
        db,
        [...levels].map(([variant, figure]) => {
          if (figure !== null && typeof figure === 'object') {
            return db
              .update(stockLevels)
              .set({
                onHand: sql`min(${stockLevels.onHand} + ${figure.received}, ${MAX_STOCK})`,
                updatedAt: now,
              })
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
        }),
      )
      snapshot = null
    },
  }
}
