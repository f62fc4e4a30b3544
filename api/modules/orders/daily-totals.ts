import { and, asc, gte, lt } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { orderQuarterHours } from '../../../db/schema/orders'

const QUARTER_HOUR_MS = 15 * 60 * 1000

/** A day to total: where it starts and ends (a day in the shop's time zone is 23, 24 or 25 hours). */
export interface DaySpan {
  date: string
  start: Date
  end: Date
}

export interface DayTotals {
  date: string
  orders: number
  takingsCents: number
}

/**
 * Orders placed and takings (the totals charged) per day, from the quarter-hour rollup the triggers keep
 * on `orders` (migration 0016): one range read of at most 96 rows a day, however many orders there are.
 * Every time zone's days begin on a quarter hour, so each row falls wholly within one day.
 */
async function totalsFor(db: Database, days: readonly DaySpan[]): Promise<DayTotals[]> {
  const first = days[0]
  const last = days[days.length - 1]
  if (!first || !last) return []
  const rows = await db
    .select()
    .from(orderQuarterHours)
    .where(
      and(
        gte(orderQuarterHours.quarterHour, Math.floor(first.start.getTime() / QUARTER_HOUR_MS)),
        lt(orderQuarterHours.quarterHour, Math.ceil(last.end.getTime() / QUARTER_HOUR_MS)),
      ),
    )
    .orderBy(asc(orderQuarterHours.quarterHour))
  const totals = days.map((day) => ({ date: day.date, orders: 0, takingsCents: 0 }))
  let index = 0
  for (const row of rows) {
    const at = row.quarterHour * QUARTER_HOUR_MS
    while (index < days.length && at >= (days[index] as DaySpan).end.getTime()) index++
    const day = totals[index]
    if (!day) break
    day.orders += row.orders
    day.takingsCents += row.takingsCents
  }
  return totals
}

export function createDailyTotals(deps: { db: Database }) {
  return {
    /** Orders and takings of each day, in the order given. */
    forDays: (days: readonly DaySpan[]) => totalsFor(deps.db, days),
  }
}

export type DailyTotals = ReturnType<typeof createDailyTotals>
