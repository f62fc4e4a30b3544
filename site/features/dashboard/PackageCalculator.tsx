import { PACKAGE_ITEM_LIMITS } from '@core/rules/package'
import { type FormEvent, useState } from 'react'
import { showToast } from '../toasts/store'
import { calculatePackage, type PackageRecommendationAnswer } from './api'
import { calculatorCount, formatDimensions, packageName, serverMessageOr } from './dashboard-logic'

/** docs/product.md#packages: which mailer fits 1–20 items; anything else in the field counts as 1. */
export function PackageCalculator() {
  const [raw, setRaw] = useState('1')
  const [result, setResult] = useState<{ count: number; answer: PackageRecommendationAnswer } | null>(null)
  const [busy, setBusy] = useState(false)

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const count = calculatorCount(raw)
    setRaw(String(count))
    setBusy(true)
    try {
      setResult({ count, answer: await calculatePackage(count) })
    } catch (error) {
      showToast({
        title: 'Calculation Failed',
        description: serverMessageOr(error, 'The package could not be worked out. Please try again.'),
        variant: 'error',
      })
    } finally {
      setBusy(false)
    }
  }

  return (
    <section
      aria-labelledby="calculator-heading"
      className="rounded-lg border border-line bg-surface p-4 sm:p-6"
    >
      <h2 id="calculator-heading" className="text-xl font-bold uppercase">
        Package Calculator
      </h2>
      <form className="mt-3 flex flex-wrap items-end gap-3" onSubmit={onSubmit} noValidate>
        <div>
          <label htmlFor="calculator-items" className="block text-sm font-semibold">
            Number of items ({PACKAGE_ITEM_LIMITS.min}–{PACKAGE_ITEM_LIMITS.max})
          </label>
          <input
            id="calculator-items"
            className="field w-28"
            type="number"
            inputMode="numeric"
            min={PACKAGE_ITEM_LIMITS.min}
            max={PACKAGE_ITEM_LIMITS.max}
            step="1"
            value={raw}
            onChange={(event) => setRaw(event.target.value)}
            onBlur={() => setRaw(String(calculatorCount(raw)))}
          />
        </div>
        <button type="submit" className="btn-primary !px-4 !py-2" disabled={busy}>
          Calculate
        </button>
      </form>
      <p role="status" className="mt-3 empty:hidden" data-package-result>
        {result
          ? `${result.count} ${result.count === 1 ? 'item' : 'items'}: ${packageName(result.answer.type)}, ${formatDimensions(result.answer.dimensions)}`
          : ''}
      </p>
    </section>
  )
}
