import type { AddressField, ProfileAddress } from '@core/rules/account'
import { type FormEvent, useState } from 'react'
import { AddressFieldset, type AddressLayout } from '../../components/form/AddressFieldset'
import { binder } from '../../components/form/fields'
import { useFieldErrors } from '../account/use-field-errors'
import { type PublicUser, saveProfile } from './api'
import {
  addressFrom,
  addressLines,
  addressProblem,
  SAVED,
  saveFailedText,
  trimmedAddress,
} from './profile-form'
import { SectionCard } from './SectionCard'
import { MessageLine, useTimedMessage } from './use-timed-message'

const addressInputId = (field: AddressField) => `address-${field}`
const KEYS = { line1: 'street', city: 'city', state: 'state', postal: 'zipCode', country: 'country' } as const
/** One street line, so the rest pair up in two columns. */
const LAYOUT: AddressLayout = {
  name: 'sm:col-span-6',
  line1: 'sm:col-span-6',
  line2: 'sm:col-span-6',
  city: 'sm:col-span-3',
  state: 'sm:col-span-3',
  postal: 'sm:col-span-3',
  country: 'sm:col-span-3',
}

/** 'Shipping Address': the one saved address, which /shipping fills in for a signed-in customer. */
export function AddressCard({ user, onSaved }: { user: PublicUser; onSaved: (user: PublicUser) => void }) {
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState<ProfileAddress>(() => addressFrom(user))
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useTimedMessage()
  const fields = useFieldErrors<AddressField>(addressInputId)

  function edit() {
    setDraft(addressFrom(user))
    fields.reset()
    setEditing(true)
    requestAnimationFrame(() => document.getElementById(addressInputId('street'))?.focus())
  }

  /** docs/product.md#account-page: Cancel restores the last saved values. */
  function cancel() {
    setDraft(addressFrom(user))
    fields.reset()
    setEditing(false)
  }

  function set(field: AddressField, value: string) {
    setDraft((current) => {
      const next = { ...current, [field]: value }
      // A US state code means nothing in another country, and the reverse.
      if (field === 'country' && value !== current.country) next.state = ''
      return next
    })
    fields.clear(field)
  }

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy) return
    const address = trimmedAddress(draft)
    const problem = addressProblem(address)
    if (problem) return fields.report(problem)
    setBusy(true)
    try {
      const answer = await saveProfile({ address })
      onSaved(answer.user)
      setEditing(false)
      setMessage({ text: SAVED, kind: 'success' })
    } catch (error) {
      setMessage({ text: saveFailedText(error), kind: 'error' })
    } finally {
      setBusy(false)
    }
  }

  return (
    <SectionCard
      id="address"
      title="Shipping Address"
      editing={editing}
      onEdit={edit}
      editLabel={user.address ? 'Edit' : 'Add'}
    >
      {editing ? (
        <form method="post" noValidate onSubmit={save} className="grid gap-4" aria-label="Shipping address">
          <AddressFieldset
            keys={KEYS}
            bind={binder({ values: draft, set, errors: fields.errors, idOf: addressInputId })}
            layout={LAYOUT}
          />
          <div className="flex gap-3">
            <button type="submit" className="btn-primary" disabled={busy}>
              {busy ? 'Saving...' : 'Save'}
            </button>
            <button type="button" className="btn-outline" onClick={cancel} disabled={busy}>
              Cancel
            </button>
          </div>
        </form>
      ) : user.address ? (
        <address className="not-italic font-semibold">
          {addressLines(user.address).map((line) => (
            <span key={line} className="block">
              {line}
            </span>
          ))}
        </address>
      ) : (
        <p className="text-muted">No shipping address</p>
      )}
      <MessageLine message={message} />
    </SectionCard>
  )
}
