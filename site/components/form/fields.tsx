import { type ReactNode, useEffect } from 'react'

/**
 * The shop's form fields: a label, one control, an optional hint and the error message, wired together
 * for assistive technology. The message is always in the DOM (empty when fine) so `aria-describedby` never
 * points at nothing, and `aria-invalid` tells which fields to fix (docs/product.md#forms).
 */

/** What ties a field to its form's state: the control's id (also its name), value, setter and error. */
export interface FieldBinding {
  id: string
  value: string
  onChange: (value: string) => void
  error?: string
}

/** What one text field asks of the browser and the shopper, apart from its state. */
export interface TextFieldSpec {
  label: string
  required?: boolean
  hint?: string
  type?: 'text' | 'email' | 'tel'
  autoComplete?: string
  inputMode?: 'text' | 'numeric' | 'email'
  maxLength?: number
  placeholder?: string
  className?: string
}

/** The fields several forms ask for, spelled once (spread them: `<TextField {...FIELD.email} …/>`). */
export const FIELD = {
  firstName: { label: 'First name', required: true, autoComplete: 'given-name', maxLength: 60 },
  lastName: { label: 'Last name', required: true, autoComplete: 'family-name', maxLength: 60 },
  email: {
    label: 'Email',
    type: 'email',
    required: true,
    autoComplete: 'email',
    inputMode: 'email',
    maxLength: 254,
  },
  phone: { label: 'Phone', type: 'tel', autoComplete: 'tel', maxLength: 30 },
} satisfies Record<string, TextFieldSpec>

/**
 * `bind('email')` → the binding of one field of a form kept as a record of strings, with its errors keyed
 * by field. `idOf` maps a field to its control's id when they differ.
 */
export function binder<Field extends string>(form: {
  values: Record<Field, string>
  set: (field: Field, value: string) => void
  errors: Partial<Record<Field, string>>
  idOf?: (field: Field) => string
}): (field: Field) => FieldBinding {
  return (field) => ({
    id: form.idOf ? form.idOf(field) : field,
    value: form.values[field],
    onChange: (value) => form.set(field, value),
    error: form.errors[field],
  })
}

/** The attributes every control of a field carries; spread onto the <input> or <select>. */
export interface ControlAttributes {
  id: string
  name: string
  value: string
  onChange: (event: { target: { value: string } }) => void
  required?: boolean
  'aria-invalid'?: true
  'aria-describedby': string
  autoComplete?: string
}

/** The control's look: the shared `field` class, outlined in red while it has an error. */
export function controlClass(invalid: boolean, extra = ''): string {
  return ['field', extra, invalid ? '!border-danger' : ''].filter(Boolean).join(' ')
}

/** Inputs whose value is not what a person typed. */
const NOT_TEXT = new Set(['checkbox', 'radio', 'file', 'hidden', 'submit', 'button', 'reset', 'image'])

/**
 * What was typed into the static page's control before its island ran: on a slow phone the field is on
 * screen and takes typing a while before React does, and hydration starts from the island's own state, so
 * the text stayed in the field but not in the form, which then said it was empty. Once, when the island
 * runs, a control's value that differs from the form's is handed to it (docs/decisions/009).
 */
function useTypedBeforeHydration(id: string, value: string, onChange: (value: string) => void): void {
  // Only at the island's start: later, the control and the form agree through onChange.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, with the values of the first render
  useEffect(() => {
    const control = document.getElementById(id)
    // Text only: a select shows its first option when its value is none of them, which no one chose.
    const text =
      control instanceof HTMLTextAreaElement ||
      (control instanceof HTMLInputElement && !NOT_TEXT.has(control.type))
    const typed = text ? control.value : ''
    if (typed !== '' && typed !== value) onChange(typed)
  }, [])
}

export function FieldShell(
  props: FieldBinding & {
    label: string
    required?: boolean
    hint?: string
    autoComplete?: string
    className?: string
    children: (control: ControlAttributes, invalid: boolean) => ReactNode
  },
) {
  const errorId = errorIdOf(props.id)
  const hintId = `${props.id}-hint`
  const invalid = Boolean(props.error)
  useTypedBeforeHydration(props.id, props.value, props.onChange)
  const control: ControlAttributes = {
    id: props.id,
    name: props.id,
    value: props.value,
    onChange: (event) => props.onChange(event.target.value),
    required: props.required,
    'aria-invalid': invalid || undefined,
    'aria-describedby': props.hint ? `${hintId} ${errorId}` : errorId,
    autoComplete: props.autoComplete,
  }
  return (
    <div className={props.className}>
      <label htmlFor={props.id} className="mb-1 block text-sm font-semibold">
        {props.label}
        {props.required ? (
          <span className="text-danger" aria-hidden="true">
            {' '}
            *
          </span>
        ) : (
          <span className="font-normal text-muted"> (optional)</span>
        )}
      </label>
      {props.children(control, invalid)}
      {props.hint && (
        <p id={hintId} className="mt-1 text-xs text-muted">
          {props.hint}
        </p>
      )}
      <FieldError id={props.id} error={props.error} />
    </div>
  )
}

/** The id of the message under the control `id`, for its `aria-describedby`. */
export const errorIdOf = (id: string) => `${id}-error`

/**
 * The message under the control `id`: always in the DOM, empty while the field is fine, so the control's
 * `aria-describedby` never points at nothing. For a control laid out outside FieldShell (the dashboard's).
 */
export function FieldError(props: { id: string; error?: string }) {
  return (
    <p id={errorIdOf(props.id)} className="mt-1 min-h-0 text-sm font-semibold text-danger empty:hidden">
      {props.error ?? ''}
    </p>
  )
}

export function TextField(props: FieldBinding & TextFieldSpec) {
  const { type, inputMode, maxLength, placeholder, ...shell } = props
  return (
    <FieldShell {...shell}>
      {(control, invalid) => (
        <input
          {...control}
          type={type ?? 'text'}
          className={controlClass(invalid)}
          inputMode={inputMode}
          maxLength={maxLength}
          placeholder={placeholder}
        />
      )}
    </FieldShell>
  )
}

export function SelectField(
  props: FieldBinding & {
    label: string
    options: readonly { value: string; label: string }[]
    placeholder?: string
    required?: boolean
    autoComplete?: string
    className?: string
  },
) {
  const { options, placeholder, ...shell } = props
  return (
    <FieldShell {...shell}>
      {(control, invalid) => (
        <select {...control} className={controlClass(invalid)}>
          {placeholder !== undefined && <option value="">{placeholder}</option>}
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FieldShell>
  )
}
