import { createContext, useContext } from 'react'
import { formatDateTime } from './dashboard-logic'

/**
 * The shop's time zone (SHOP_TIME_ZONE) as GET /api/dashboard/stats names it, for every time the dashboard
 * shows; null until that answer has come. The browser cannot know it, and its own zone would put times on
 * other days than the filters, 'Orders Today' and the CSV count them in.
 */
export const ShopTimeZone = createContext<string | null>(null)

/** A moment as the shop's clock read it ('Nov 27, 2026, 6:05 PM CST'); a dash until the shop's zone is known. */
export function ShopTime({ at }: { at: string }) {
  const timeZone = useContext(ShopTimeZone)
  // No time at all rather than one in the wrong zone: the stats come with the first lists.
  if (timeZone === null) {
    return (
      <span>
        <span aria-hidden="true">–</span>
        <span className="sr-only">time not shown yet</span>
      </span>
    )
  }
  return <time dateTime={at}>{formatDateTime(at, timeZone)}</time>
}
