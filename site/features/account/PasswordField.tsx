import { useState } from 'react'
import { FieldShell } from '../checkout/fields'

const EyeIcon = ({ open }: { open: boolean }) => (
  <svg
    width="20"
    height="20"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
  >
    <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12Z" />
    <circle cx="12" cy="12" r="3" />
    {!open && <path d="m3 3 18 18" />}
  </svg>
)

/** A password input with a show/hide toggle (spec §2). The toggle never submits the form. */
export function PasswordField(props: {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  error?: string
  hint?: string
  autoComplete: 'current-password' | 'new-password'
}) {
  const [visible, setVisible] = useState(false)
  return (
    <FieldShell id={props.id} label={props.label} required error={props.error} hint={props.hint}>
      {(describedBy, invalid) => (
        <div className="relative">
          <input
            id={props.id}
            name={props.id}
            type={visible ? 'text' : 'password'}
            className={`field pr-12 ${invalid ? '!border-danger' : ''}`}
            value={props.value}
            onChange={(event) => props.onChange(event.target.value)}
            required
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            autoComplete={props.autoComplete}
            maxLength={200}
            spellCheck={false}
            autoCapitalize="off"
          />
          <button
            type="button"
            className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-md text-muted hover:text-ink focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand"
            // One name, with the pressed state saying whether the password shows (a toggle button's pattern).
            aria-label={`Show ${props.label.toLowerCase()}`}
            aria-pressed={visible}
            aria-controls={props.id}
            onClick={() => setVisible(!visible)}
          >
            <EyeIcon open={visible} />
          </button>
        </div>
      )}
    </FieldShell>
  )
}
