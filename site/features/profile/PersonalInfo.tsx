import { FIELD, TextField } from '../../components/form/fields'
import { $user } from '../account/auth-store'
import { useFormFields } from '../account/use-field-errors'
import type { PublicUser } from './api'
import {
  type PersonalField,
  personalBody,
  personalFrom,
  personalProblem,
  refusedPersonalField,
} from './profile-form'
import { Details, SaveButtons, SectionCard } from './SectionCard'
import { useProfileCard } from './use-profile-card'
import { MessageLine } from './use-timed-message'

/** 'Personal Information': first and last name and phone are editable; the e-mail is read-only (docs/product.md#account-page). */
export function PersonalInfo({ user, onSaved }: { user: PublicUser; onSaved: (user: PublicUser) => void }) {
  const fields = useFormFields<PersonalField>(() => personalFrom(user))
  const card = useProfileCard({
    restore() {
      fields.setValues(personalFrom(user))
      fields.reset()
    },
    firstInputId: 'firstName',
    body() {
      const problem = personalProblem(fields.values)
      if (problem) fields.report(problem)
      else fields.reset()
      return problem ? null : personalBody(fields.values)
    },
    onSaved(saved) {
      onSaved(saved)
      // The header's account link reads the signed-in user too.
      $user.set(saved)
    },
    refused(message, sent) {
      // The answer names no field: the request tells which of the three the server refused.
      const field = refusedPersonalField(sent)
      if (field) fields.refused(field, 'Check Your Details', message)
      return field !== null
    },
  })
  const { bind } = fields

  return (
    <SectionCard id="personal" title="Personal Information" editing={card.editing} onEdit={card.edit}>
      {card.editing ? (
        <form
          method="post"
          noValidate
          onSubmit={card.save}
          className="grid gap-4 sm:grid-cols-2"
          aria-label="Personal information"
        >
          <TextField {...FIELD.firstName} {...bind('firstName')} />
          <TextField {...FIELD.lastName} {...bind('lastName')} />
          <div>
            <label htmlFor="profile-email" className="mb-1 block text-sm font-semibold">
              Email
            </label>
            <input
              id="profile-email"
              className="field opacity-80"
              type="email"
              value={user.email}
              readOnly
              aria-describedby="profile-email-hint"
            />
            <p id="profile-email-hint" className="mt-1 text-xs text-muted">
              Your e-mail cannot be changed here.
            </p>
          </div>
          <TextField {...FIELD.phone} {...bind('phone')} />
          <SaveButtons busy={card.busy} onCancel={card.cancel} className="flex gap-3 sm:col-span-2" />
        </form>
      ) : (
        <Details
          rows={[
            ['First name', user.firstName || '—'],
            ['Last name', user.lastName || '—'],
            ['Email', user.email],
            ['Phone', user.phone || 'Not set'],
          ]}
        />
      )}
      <MessageLine message={card.message} />
    </SectionCard>
  )
}
