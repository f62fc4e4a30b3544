import { ORDER_QUERY_MAX_LENGTH } from '@core/rules/order-search'
import { useContext, useEffect, useState } from 'react'
import { LIST_SIZE, type OrdersView } from './api'
import { dayZoneName, exportPath, isFiltered } from './dashboard-logic'
import { ShopTimeZone } from './ShopTime'

/** Typing pauses this long before the orders are asked for: one call per word, not per key. */
export const SEARCH_DELAY_MS = 300

/** The status filter: every order, those waiting for someone, or those that are over. */
const STATUSES = [
  { value: '', label: 'All orders' },
  { value: 'failed', label: 'Failed' },
  { value: 'label_created', label: 'Ready to ship (LABEL CREATED)' },
  { value: 'pending,processing', label: 'Processing' },
  { value: 'shipped', label: 'Shipped' },
  { value: 'cancelled', label: 'Cancelled' },
  { value: 'refunded', label: 'Refunded' },
] as const

const EMPTY = { q: '', status: '', from: '', to: '' }

/** One end of the range of days; the other end bounds it, so the range cannot be turned inside out. */
function DayField(props: {
  id: string
  label: string
  value: string
  min?: string
  max?: string
  onChange: (day: string) => void
}) {
  // The days are the shop's (SHOP_TIME_ZONE), not the laptop's: the label says whose once the stats name it.
  const timeZone = useContext(ShopTimeZone)
  return (
    <div className="self-start">
      <label htmlFor={props.id} className="text-sm font-semibold">
        {props.label}
        {timeZone === null ? null : <span className="font-normal"> ({dayZoneName(timeZone)})</span>}
      </label>
      <input
        id={props.id}
        type="date"
        className="field mt-1"
        value={props.value}
        min={props.min || undefined}
        max={props.max || undefined}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </div>
  )
}

/**
 * Search and filters above the orders (docs/product.md#dashboard): text (an order number, an e-mail or the
 * start of a name) applied once typing pauses or at Enter, a status, a range of days, Clear, and the
 * export of what the filters find. Every change starts again at the first page.
 */
export function OrderFilters({
  view,
  onViewChange,
}: {
  view: OrdersView
  onViewChange: (view: OrdersView) => void
}) {
  const [text, setText] = useState(view.q)

  useEffect(() => {
    if (text === view.q) return
    const timer = window.setTimeout(
      () => onViewChange({ ...view, q: text, limit: LIST_SIZE }),
      SEARCH_DELAY_MS,
    )
    return () => window.clearTimeout(timer)
  }, [text, view, onViewChange])

  const change = (part: Partial<OrdersView>) => onViewChange({ ...view, q: text, ...part, limit: LIST_SIZE })

  return (
    <search aria-label="Find orders">
      <form
        className="grid grid-cols-1 items-end gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(14rem,2fr)_repeat(3,minmax(9rem,1fr))_auto]"
        onSubmit={(event) => {
          event.preventDefault()
          change({})
        }}
      >
        <div className="sm:col-span-2 lg:col-span-1">
          <label htmlFor="orders-search" className="text-sm font-semibold">
            Search orders
          </label>
          <input
            id="orders-search"
            type="search"
            className="field mt-1"
            value={text}
            maxLength={ORDER_QUERY_MAX_LENGTH}
            placeholder="000042, dana@example.com, Dana"
            aria-describedby="orders-search-hint"
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => setText(event.target.value)}
          />
          <p id="orders-search-hint" className="mt-1 text-xs text-muted">
            An order number, an e-mail or its start, or the start of a name.
          </p>
        </div>
        <div className="self-start">
          <label htmlFor="orders-filter" className="text-sm font-semibold">
            Show
          </label>
          <select
            id="orders-filter"
            className="field mt-1"
            value={view.status}
            onChange={(event) => change({ status: event.target.value })}
          >
            {STATUSES.some((status) => status.value === view.status) ? null : (
              <option value={view.status}>{view.status}</option>
            )}
            {STATUSES.map((status) => (
              <option key={status.value} value={status.value}>
                {status.label}
              </option>
            ))}
          </select>
        </div>
        <DayField
          id="orders-from"
          label="From"
          value={view.from}
          max={view.to}
          onChange={(from) => change({ from })}
        />
        <DayField
          id="orders-to"
          label="To"
          value={view.to}
          min={view.from}
          onChange={(to) => change({ to })}
        />
        <div className="flex flex-wrap gap-2 self-start lg:mt-6">
          {isFiltered({ ...view, q: text }) && (
            <button
              type="button"
              className="btn-outline !px-4 !py-2 text-xs"
              onClick={() => {
                setText('')
                onViewChange({ ...view, ...EMPTY, limit: LIST_SIZE })
              }}
            >
              Clear
            </button>
          )}
          <a href={exportPath(view)} download className="btn-outline !px-4 !py-2 text-xs">
            Export CSV
          </a>
        </div>
      </form>
    </search>
  )
}
