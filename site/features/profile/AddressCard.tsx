import { type FormEvent, useState } from 'react'
import type { AddressField, ProfileAddress } from '../../../api/rules/account'
import { US_STATES } from '../../../api/rules/address'
import { useFieldErrors } from '../account/use-field-errors'
import { SelectField, TextField } from '../checkout/fields'
import { COUNTRIES } from '../checkout/form'
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

const STATE_OPTIONS = US_STATES.map((state) => ({ value: state.code, label: state.name }))
const COUNTRY_OPTIONS = COUNTRIES.map((country) => ({ value: country.code, label: country.name }))
const addressInputId = (field: AddressField) => `address-${field}`

/** 'Shipping Address': the one saved address, which /shipping fills in for a signed-in customer. */
export function AddressCard({ user, onSaved }: { user: PublicUser; onSaved: (user: PublicUser) => void }) {
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState<ProfileAddress>(() => addressFrom(user))
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useTimedMessage()
  const fields = useFieldErrors<AddressField>(addressInputId)
  const id = addressInputId

  function edit() {
    setDraft(addressFrom(user))
    fields.reset()
    setEditing(true)
    requestAnimationFrame(() => document.getElementById(id('street'))?.focus())
  }

  /** Spec §4: Cancel restores the last saved values. */
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

  const isUs = draft.country === 'US'
  const error = (field: AddressField) => fields.errors[field]

  return (
    <SectionCard
      id="address"
      title="Shipping Address"
      editing={editing}
      onEdit={edit}
      editLabel={user.address ? 'Edit' : 'Add'}
    >
      {editing ? (
        <form
          method="post"
          noValidate
          onSubmit={save}
          className="grid gap-4 sm:grid-cols-6"
          aria-label="Shipping address"
        >
          <TextField
            id={id('street')}
            label="Street address"
            required
            value={draft.street}
            onChange={(value) => set('street', value)}
            error={error('street')}
            autoComplete="street-address"
            maxLength={100}
            className="sm:col-span-6"
          />
          <TextField
            id={id('city')}
            label="City"
            required
            value={draft.city}
            onChange={(value) => set('city', value)}
            error={error('city')}
            autoComplete="address-level2"
            maxLength={60}
            className="sm:col-span-3"
          />
          {isUs ? (
            <SelectField
              id={id('state')}
              label="State"
              required
              value={draft.state}
              onChange={(value) => set('state', value)}
              options={STATE_OPTIONS}
              placeholder="Select a state"
              error={error('state')}
              autoComplete="address-level1"
              className="sm:col-span-3"
            />
          ) : (
            <TextField
              id={id('state')}
              label="State / Province"
              required
              value={draft.state}
              onChange={(value) => set('state', value)}
              error={error('state')}
              autoComplete="address-level1"
              maxLength={60}
              className="sm:col-span-3"
            />
          )}
          <TextField
            id={id('zipCode')}
            label={isUs ? 'ZIP' : 'Postal code'}
            required
            value={draft.zipCode}
            onChange={(value) => set('zipCode', value)}
            error={error('zipCode')}
            autoComplete="postal-code"
            inputMode={isUs ? 'numeric' : 'text'}
            maxLength={isUs ? 10 : 20}
            className="sm:col-span-3"
          />
          <SelectField
            id={id('country')}
            label="Country"
            required
            value={draft.country}
            onChange={(value) => set('country', value)}
            options={COUNTRY_OPTIONS}
            error={error('country')}
            autoComplete="country"
            className="sm:col-span-3"
          />
          <div className="flex gap-3 sm:col-span-6">
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
