import { type FormEvent, useState } from 'react'
import { FIELD, TextField } from '../../components/form/fields'
import { $user } from '../account/auth-store'
import { useFormFields } from '../account/use-field-errors'
import { type PublicUser, saveProfile } from './api'
import { type PersonalField, personalFrom, personalProblem, SAVED, saveFailedText } from './profile-form'
import { Details, SectionCard } from './SectionCard'
import { MessageLine, useTimedMessage } from './use-timed-message'

/** 'Personal Information': first and last name and phone are editable; the e-mail is read-only (docs/product.md#account-page). */
export function PersonalInfo({ user, onSaved }: { user: PublicUser; onSaved: (user: PublicUser) => void }) {
  const [editing, setEditing] = useState(false)
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useTimedMessage()
  const fields = useFormFields<PersonalField>(() => personalFrom(user))
  const { values: draft, setValues: setDraft, bind } = fields

  function edit() {
    setDraft(personalFrom(user))
    fields.reset()
    setEditing(true)
    requestAnimationFrame(() => document.getElementById('firstName')?.focus())
  }

  /** docs/product.md#account-page: Cancel restores the last saved values. */
  function cancel() {
    setDraft(personalFrom(user))
    fields.reset()
    setEditing(false)
  }

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy) return
    const problem = personalProblem(draft)
    if (problem) return fields.report(problem)
    setBusy(true)
    try {
      const answer = await saveProfile({
        firstName: draft.firstName.trim(),
        lastName: draft.lastName.trim(),
        phone: draft.phone.trim(),
      })
      onSaved(answer.user)
      $user.set(answer.user)
      setEditing(false)
      setMessage({ text: SAVED, kind: 'success' })
    } catch (error) {
      setMessage({ text: saveFailedText(error), kind: 'error' })
    } finally {
      setBusy(false)
    }
  }

  return (
    <SectionCard id="personal" title="Personal Information" editing={editing} onEdit={edit}>
      {editing ? (
        <form
          method="post"
          noValidate
          onSubmit={save}
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
          <div className="flex gap-3 sm:col-span-2">
            <button type="submit" className="btn-primary" disabled={busy}>
              {busy ? 'Saving...' : 'Save'}
            </button>
            <button type="button" className="btn-outline" onClick={cancel} disabled={busy}>
              Cancel
            </button>
          </div>
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
      <MessageLine message={message} />
    </SectionCard>
  )
}
