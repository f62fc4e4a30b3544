import { useState } from 'react'
import { controlClass, type FieldBinding, FieldShell } from '../../components/form/fields'
import { Icon } from '../../components/shell/icons'

/** A password input with a show/hide toggle (docs/product.md#sign-in). The toggle never submits the form. */
export function PasswordField(
  props: FieldBinding & {
    label: string
    hint?: string
    autoComplete: 'current-password' | 'new-password'
  },
) {
  const [visible, setVisible] = useState(false)
  return (
    <FieldShell {...props} required>
      {(control, invalid) => (
        <div className="relative">
          <input
            {...control}
            type={visible ? 'text' : 'password'}
            className={controlClass(invalid, 'pr-12')}
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

export type NewPasswordField = 'password' | 'confirmPassword'

/** A new password and the same again (sign-up, reset), with the length hint on the first. */
export function NewPasswordFields(props: {
  bind: (field: NewPasswordField) => FieldBinding
  labels: Record<NewPasswordField, string>
  hint?: string
}) {
  return (
    <>
      <PasswordField
        {...props.bind('password')}
        label={props.labels.password}
        hint={props.hint ?? 'At least 6 characters.'}
        autoComplete="new-password"
      />
      <PasswordField
        {...props.bind('confirmPassword')}
        label={props.labels.confirmPassword}
        autoComplete="new-password"
      />
    </>
  )
}

/** An eye, struck through while `open` is false (the password toggle). */
const EyeIcon = ({ open }: { open: boolean }) => (
  <Icon size={20}>
    <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12Z" />
    <circle cx="12" cy="12" r="3" />
    {!open && <path d="m3 3 18 18" />}
  </Icon>
)
