import { useEffect, useRef, useState } from 'react'
import { binder } from '../../components/form/fields'
import { dismissToast, showToast } from '../toasts/store'
import type { Problem } from './validation'

/**
 * Field errors for one form: `report` marks the fields (aria-invalid), shows the form's toast and moves
 * focus to the first field to fix (docs/product.md#forms), and `refused` does the same for a value the
 * server refused; typing in a field clears its mark; `reset`, once the form's checks pass, clears them all
 * and takes that toast away (a red message left over a form that went through reads as if it had not).
 * `idOf` maps a field to its input's id when they differ.
 */
export function useFieldErrors<Field extends string>(idOf: (field: Field) => string = (field) => field) {
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  // A fresh object per report, so asking to focus the same field twice still moves focus.
  const [focus, setFocus] = useState<{ id: Field } | null>(null)
  // Kept aside, not a dependency: a caller's `idOf` may be a new function on every render, and focus must
  // move only when a report asks, never again on the next keystroke.
  const idOfRef = useRef(idOf)
  idOfRef.current = idOf
  // The toast of the last report, while it may still be on screen.
  const reported = useRef<number | null>(null)

  useEffect(() => {
    if (focus) document.getElementById(idOfRef.current(focus.id))?.focus()
  }, [focus])

  function report(problem: Problem<Field>) {
    setErrors(problem.fields)
    const first = Object.keys(problem.fields)[0] as Field | undefined
    if (first) setFocus({ id: first })
    if (reported.current !== null) dismissToast(reported.current)
    reported.current = showToast({
      title: problem.title,
      description: problem.description,
      variant: 'error',
    })
  }

  return {
    errors,
    report,
    /**
     * The server refused the value of `field` with `message`: shown as the form's own checks show a
     * problem, the message under the field and in the toast (docs/product.md#forms).
     */
    refused(field: Field, title: string, message: string) {
      report({ title, description: message, fields: { [field]: message } as Partial<Record<Field, string>> })
    },
    /** Moves focus to `field` once the form has drawn again (a field re-enabled after a refused send). */
    focus(field: Field) {
      setFocus({ id: field })
    },
    clear(field: Field) {
      setErrors((current) => {
        if (current[field] === undefined) return current
        const next = { ...current }
        delete next[field]
        return next
      })
    },
    reset() {
      setErrors({})
      if (reported.current !== null) dismissToast(reported.current)
      reported.current = null
    },
  }
}

/**
 * A form kept as one record of strings, with its field errors (useFieldErrors) and `bind(field)` for each
 * field's id, value, setter and error. Typing in a field clears its error.
 */
export function useFormFields<Field extends string>(
  initial: Record<Field, string> | (() => Record<Field, string>),
) {
  const [values, setValues] = useState(initial)
  const fields = useFieldErrors<Field>()
  function set(field: Field, value: string) {
    setValues((current) => ({ ...current, [field]: value }))
    fields.clear(field)
  }
  return { ...fields, values, setValues, bind: binder({ values, set, errors: fields.errors }) }
}
