import { useState } from 'react'
import type { DashboardStats } from './api'
import { barHeights, chartMoney, shortDay } from './dashboard-logic'

type Day = DashboardStats['days'][number]

/** Units of the bars' drawing: each day a slot this wide, the tallest bar this tall. */
const SLOT = 10
const HEIGHT = 100

/**
 * docs/product.md#dashboard: orders and takings per day for the last 30 days, two bar charts drawn as SVG (no library),
 * from the stats call. Screen readers read the table of the same numbers, which anyone can also show; the
 * charts' box keeps its height while the numbers load, so nothing below it moves.
 */
export function DailyChart({ days, error }: { days: Day[] | null; error: Error | null }) {
  const [tableShown, setTableShown] = useState(false)
  const orders = days?.reduce((sum, day) => sum + day.orders, 0) ?? 0
  const takings = days?.reduce((sum, day) => sum + day.takings, 0) ?? 0
  const first = days?.[0]
  const last = days?.[days.length - 1]
  return (
    <section aria-labelledby="chart-heading" className="rounded-lg border border-line bg-surface p-4 sm:p-6">
      <h2 id="chart-heading" className="text-xl font-bold uppercase">
        Last 30 Days
      </h2>
      <figure className="mt-4" aria-labelledby="chart-caption">
        <figcaption id="chart-caption" className="min-h-[2.5rem] text-sm text-muted">
          {first && last
            ? `Orders and takings per day, ${shortDay(first.date)} to ${shortDay(last.date)}: ${orders.toLocaleString('en-US')} orders, ${chartMoney(takings)} taken.`
            : error
              ? 'The chart could not be loaded.'
              : 'Loading the chart...'}
        </figcaption>
        <div className="daily-charts mt-3 grid grid-cols-1 gap-4 md:grid-cols-2" aria-hidden="true">
          <Bars days={days} title="Orders" tone="orders" value={(day) => day.orders} format={String} />
          <Bars days={days} title="Takings" tone="takings" value={(day) => day.takings} format={chartMoney} />
        </div>
        <button
          type="button"
          className="btn-outline mt-3 !px-4 !py-2 text-xs"
          aria-pressed={tableShown}
          aria-controls="chart-table"
          disabled={!days}
          onClick={() => setTableShown((shown) => !shown)}
        >
          {tableShown ? 'Hide the numbers' : 'Show the numbers'}
        </button>
        {/* Always read by screen readers; shown on request for everyone else. */}
        <div className={tableShown ? 'mt-3' : 'sr-only'}>
          <table id="chart-table" className="dashboard-table w-full border-collapse text-sm">
            <caption className="sr-only">Orders and takings per day, the last 30 days</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Orders</th>
                <th scope="col">Takings</th>
              </tr>
            </thead>
            <tbody>
              {(days ?? []).map((day) => (
                <tr key={day.date} data-chart-day={day.date}>
                  <th scope="row">{shortDay(day.date)}</th>
                  <td>{day.orders}</td>
                  <td>{chartMoney(day.takings)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </figure>
    </section>
  )
}

function Bars(props: {
  days: Day[] | null
  title: string
  tone: 'orders' | 'takings'
  value: (day: Day) => number
  format: (value: number) => string
}) {
  const { days, title, tone, value, format } = props
  const values = (days ?? []).map(value)
  const heights = barHeights(values, HEIGHT)
  const largest = Math.max(0, ...values)
  return (
    <div>
      <div className="flex items-baseline justify-between text-xs text-muted">
        <span className="font-semibold uppercase">{title}</span>
        <span>{days ? `most ${format(largest)}` : ''}</span>
      </div>
      <svg
        className={`daily-chart daily-chart-${tone}`}
        viewBox={`0 0 ${Math.max(1, values.length) * SLOT} ${HEIGHT}`}
        preserveAspectRatio="none"
        focusable="false"
        aria-hidden="true"
      >
        <line className="daily-chart-axis" x1="0" x2={values.length * SLOT} y1={HEIGHT} y2={HEIGHT} />
        {(days ?? []).map((day, index) => (
          <rect
            key={day.date}
            x={index * SLOT + 1}
            y={HEIGHT - (heights[index] ?? 0)}
            width={SLOT - 2}
            height={heights[index] ?? 0}
          >
            <title>{`${shortDay(day.date)}: ${format(value(day))}`}</title>
          </rect>
        ))}
      </svg>
      <div className="flex justify-between text-xs text-muted">
        <span>{days?.[0] ? shortDay(days[0].date) : ''}</span>
        <span>{days?.length ? 'Today' : ''}</span>
      </div>
    </div>
  )
}
