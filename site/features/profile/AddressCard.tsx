import type { AddressField, ProfileAddress } from '@core/rules/account'
import { useState } from 'react'
import { AddressFieldset, type AddressLayout } from '../../components/form/AddressFieldset'
import { binder } from '../../components/form/fields'
import { useFieldErrors } from '../account/use-field-errors'
import type { PublicUser } from './api'
import { addressFrom, addressLines, addressProblem, trimmedAddress } from './profile-form'
import { SaveButtons, SectionCard } from './SectionCard'
import { useProfileCard } from './use-profile-card'
import { MessageLine } from './use-timed-message'

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
  const [draft, setDraft] = useState<ProfileAddress>(() => addressFrom(user))
  const fields = useFieldErrors<AddressField>(addressInputId)
  const card = useProfileCard({
    restore() {
      setDraft(addressFrom(user))
      fields.reset()
    },
    firstInputId: addressInputId('street'),
    body() {
      const address = trimmedAddress(draft)
      const problem = addressProblem(address)
      if (problem) fields.report(problem)
      else fields.reset()
      return problem ? null : { address }
    },
    onSaved,
  })

  function set(field: AddressField, value: string) {
    setDraft((current) => {
      const next = { ...current, [field]: value }
      // A US state code means nothing in another country, and the reverse.
      if (field === 'country' && value !== current.country) next.state = ''
      return next
    })
    fields.clear(field)
  }

  return (
    <SectionCard
      id="address"
      title="Shipping Address"
      editing={card.editing}
      onEdit={card.edit}
      editLabel={user.address ? 'Edit' : 'Add'}
    >
      {card.editing ? (
        <form
          method="post"
          noValidate
          onSubmit={card.save}
          className="grid gap-4"
          aria-label="Shipping address"
        >
          <AddressFieldset
            keys={KEYS}
            bind={binder({ values: draft, set, errors: fields.errors, idOf: addressInputId })}
            layout={LAYOUT}
          />
          <SaveButtons busy={card.busy} onCancel={card.cancel} />
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
      <MessageLine message={card.message} />
    </SectionCard>
  )
}
