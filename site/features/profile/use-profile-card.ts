import type { UpdateProfileBody } from '@core/contracts/account'
import { type FormEvent, useState } from 'react'
import { type PublicUser, saveProfile } from './api'
import { refusedMessage, SAVED, saveFailedText } from './profile-form'
import { useTimedMessage } from './use-timed-message'

export interface ProfileCardOptions {
  /** Puts the saved values back in the form and clears its marks: on Edit, and on Cancel. */
  restore: () => void
  /** The input that takes focus when editing starts. */
  firstInputId: string
  /** The body to send, or null when the form has reported what to fix. */
  body: () => UpdateProfileBody | null
  onSaved: (user: PublicUser) => void
  /**
   * The server refused a value of `sent` with `message`: the card marks the field it was about and
   * returns true, or returns false when it cannot tell which, and the message shows under the buttons.
   */
  refused?: (message: string, sent: UpdateProfileBody) => boolean
}

/**
 * The Edit, Save and Cancel of a profile card (docs/product.md#account-page): Edit starts from the saved
 * values, Cancel restores them, Save sends one PUT /api/auth/update-profile at a time and says how it went
 * for a few seconds; a value the server refused is shown on its field when the card can tell which
 * (`refused`), else its reason is the message.
 */
export function useProfileCard(options: ProfileCardOptions) {
  const [editing, setEditing] = useState(false)
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useTimedMessage()

  function edit() {
    options.restore()
    setEditing(true)
    requestAnimationFrame(() => document.getElementById(options.firstInputId)?.focus())
  }

  function cancel() {
    options.restore()
    setEditing(false)
  }

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy) return
    const body = options.body()
    if (!body) return
    setBusy(true)
    try {
      const answer = await saveProfile(body)
      options.onSaved(answer.user)
      setEditing(false)
      setMessage({ text: SAVED, kind: 'success' })
    } catch (error) {
      const refused = refusedMessage(error)
      if (refused === null || !options.refused?.(refused, body))
        setMessage({ text: saveFailedText(error), kind: 'error' })
    } finally {
      setBusy(false)
    }
  }

  return { editing, busy, message, edit, cancel, save }
}
