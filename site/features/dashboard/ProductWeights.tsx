import { PRODUCT_WEIGHT_MESSAGE } from '@core/rules/product-weight'
import { type FormEvent, useEffect, useState } from 'react'
import { errorIdOf, FieldError } from '../../components/form/fields'
import { useFieldErrors } from '../account/use-field-errors'
import { showToast } from '../toasts/store'
import { type DashboardProduct, setProductWeight } from './api'
import { formatOunces, refusedValue, serverMessageOr, weightFromField } from './dashboard-logic'
import { ProductStock } from './ProductStock'
import { Section } from './Section'
import type { Polled } from './use-polling'

/**
 * Products with their shipping weight and stock, each editable in place (rates and labels use the weight
 * from then on; checkouts the stock).
 */
export function ProductWeights({ state }: { state: Polled<DashboardProduct[]> }) {
  // What a save answered stands until the products are read again (Refresh, polling): the read is newer.
  const [saved, setSaved] = useState<Record<number, Partial<DashboardProduct>>>({})
  useEffect(() => {
    if (state.data) setSaved({})
  }, [state.data])
  const products = (state.data ?? []).map((product) => ({ ...product, ...saved[product.id] }))
  const save = (id: number, change: Partial<DashboardProduct>) =>
    setSaved((current) => ({ ...current, [id]: { ...current[id], ...change } }))
  return (
    <Section
      id="products"
      title="Products"
      loading={state.loading}
      error={state.error}
      hasData={state.data !== null}
      loadingText="Loading products..."
    >
      <ul className="grid gap-3">
        {products.map((product) => (
          <WeightRow
            key={product.id}
            product={product}
            onSaved={(weight) => save(product.id, { weight })}
            onStockSaved={(changed) =>
              save(product.id, {
                stock: changed.stock,
                variants: changed.variants,
                formerVariants: changed.formerVariants,
              })
            }
          />
        ))}
      </ul>
    </Section>
  )
}

function WeightRow({
  product,
  onSaved,
  onStockSaved,
}: {
  product: DashboardProduct
  onSaved: (weight: number) => void
  onStockSaved: (product: DashboardProduct) => void
}) {
  const [value, setValue] = useState(product.weight.toFixed(1))
  const [busy, setBusy] = useState(false)
  const inputId = `weight-${product.id}`
  const fields = useFieldErrors<'weight'>(() => inputId)

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy) return
    const weight = weightFromField(value)
    if (weight === null) return fields.refused('weight', 'Update Failed', PRODUCT_WEIGHT_MESSAGE)
    fields.reset()
    setBusy(true)
    try {
      const answer = await setProductWeight(product.id, weight)
      onSaved(answer.product.weight)
      setValue(answer.product.weight.toFixed(1))
      showToast({ title: 'Weight Updated', description: answer.message })
    } catch (error) {
      // The weight is all a save sends: a value refused is the field's to show.
      const refused = refusedValue(error)
      if (refused) fields.refused('weight', 'Update Failed', refused)
      else
        showToast({
          title: 'Update Failed',
          description: serverMessageOr(error, 'The weight could not be saved. Please try again.'),
          variant: 'error',
        })
    } finally {
      setBusy(false)
    }
  }

  return (
    <li className="rounded-md border border-line p-3" data-product={product.id}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-semibold">{product.name}</h3>
        <span className="text-sm text-muted">
          Now <span data-weight>{formatOunces(product.weight)}</span>
        </span>
      </div>
      <p className="mt-1 line-clamp-2 text-sm text-muted">{product.description}</p>
      <form className="mt-2" onSubmit={onSubmit} noValidate>
        <label htmlFor={inputId} className="block text-xs font-semibold">
          Weight of {product.name} (oz)
        </label>
        <div className="mt-1 flex flex-wrap items-center gap-2">
          <input
            id={inputId}
            className="field w-28"
            type="number"
            inputMode="decimal"
            step="0.1"
            min="0.1"
            max="1000"
            value={value}
            aria-invalid={fields.errors.weight ? true : undefined}
            aria-describedby={errorIdOf(inputId)}
            onChange={(event) => {
              setValue(event.target.value)
              fields.clear('weight')
            }}
          />
          {/* Waits without `disabled`, which would drop the focus of the one who pressed it. */}
          <button
            type="submit"
            className={`btn-outline !px-3 !py-2 text-xs ${busy ? 'opacity-60' : ''}`}
            aria-disabled={busy}
          >
            {busy ? 'Saving...' : 'Save'}
            <span className="sr-only"> weight of {product.name}</span>
          </button>
        </div>
        <FieldError id={inputId} error={fields.errors.weight} />
      </form>
      <ProductStock product={product} onSaved={onStockSaved} />
    </li>
  )
}
