import type { ReactNode } from 'react'

/**
 * A labelled form control with its error message. The message is always in the DOM (empty when fine) so
 * `aria-describedby` never points at nothing, and `aria-invalid` tells assistive technology which fields
 * to fix (DESIGN decision 6).
 */
export function FieldShell(props: {
  id: string
  label: string
  required?: boolean
  error?: string
  hint?: string
  className?: string
  children: (describedBy: string, invalid: boolean) => ReactNode
}) {
  const errorId = `${props.id}-error`
  const hintId = `${props.id}-hint`
  const describedBy = props.hint ? `${hintId} ${errorId}` : errorId
  const invalid = Boolean(props.error)
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
      {props.children(describedBy, invalid)}
      {props.hint && (
        <p id={hintId} className="mt-1 text-xs text-muted">
          {props.hint}
        </p>
      )}
      <p id={errorId} className="mt-1 min-h-0 text-sm font-semibold text-danger empty:hidden">
        {props.error ?? ''}
      </p>
    </div>
  )
}

const invalidClass = '!border-danger'

export function TextField(props: {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  required?: boolean
  error?: string
  hint?: string
  type?: 'text' | 'email' | 'tel'
  autoComplete?: string
  inputMode?: 'text' | 'numeric' | 'email'
  maxLength?: number
  placeholder?: string
  className?: string
}) {
  return (
    <FieldShell
      id={props.id}
      label={props.label}
      required={props.required}
      error={props.error}
      hint={props.hint}
      className={props.className}
    >
      {(describedBy, invalid) => (
        <input
          id={props.id}
          name={props.id}
          type={props.type ?? 'text'}
          className={`field ${invalid ? invalidClass : ''}`}
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
          required={props.required}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          autoComplete={props.autoComplete}
          inputMode={props.inputMode}
          maxLength={props.maxLength}
          placeholder={props.placeholder}
        />
      )}
    </FieldShell>
  )
}

export function SelectField(props: {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  options: readonly { value: string; label: string }[]
  placeholder?: string
  required?: boolean
  error?: string
  autoComplete?: string
  className?: string
}) {
  return (
    <FieldShell
      id={props.id}
      label={props.label}
      required={props.required}
      error={props.error}
      className={props.className}
    >
      {(describedBy, invalid) => (
        <select
          id={props.id}
          name={props.id}
          className={`field ${invalid ? invalidClass : ''}`}
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
          required={props.required}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          autoComplete={props.autoComplete}
        >
          {props.placeholder !== undefined && <option value="">{props.placeholder}</option>}
          {props.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FieldShell>
  )
}
