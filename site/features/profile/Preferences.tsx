import { useState } from 'react'
import { type PublicUser, saveNotifications } from './api'
import { SAVE_FAILED } from './profile-form'
import { SectionCard } from './SectionCard'
import { MessageLine, useTimedMessage } from './use-timed-message'

type Channel = 'email' | 'sms'

const CHANNELS: { key: Channel; label: string; hint: string }[] = [
  { key: 'email', label: 'Email Notifications', hint: 'Order updates, new products and crew-only offers.' },
  { key: 'sms', label: 'SMS Updates', hint: 'Shipping updates by text message.' },
]

/** The preference switches; each change is stored at once. */
export function Preferences({ user, onSaved }: { user: PublicUser; onSaved: (user: PublicUser) => void }) {
  const [busy, setBusy] = useState<Channel | null>(null)
  const [message, setMessage] = useTimedMessage()

  async function toggle(channel: Channel) {
    if (busy) return
    setBusy(channel)
    try {
      const answer = await saveNotifications({ [channel]: !user.notifications[channel] })
      onSaved(answer.user)
      setMessage({ text: 'Preferences saved.', kind: 'success' })
    } catch {
      setMessage({ text: SAVE_FAILED, kind: 'error' })
    } finally {
      setBusy(null)
    }
  }

  return (
    <SectionCard id="preferences" title="Preferences">
      <ul className="grid gap-4">
        {CHANNELS.map(({ key, label, hint }) => {
          const on = user.notifications[key]
          return (
            <li key={key} className="flex items-center justify-between gap-4">
              <span>
                <span id={`pref-${key}`} className="block font-semibold">
                  {label}
                </span>
                <span id={`pref-${key}-hint`} className="block text-sm text-muted">
                  {hint}
                </span>
              </span>
              <button
                type="button"
                role="switch"
                aria-checked={on}
                aria-labelledby={`pref-${key}`}
                aria-describedby={`pref-${key}-hint`}
                // Waits while a change is saved, without `disabled`, which would drop the focus of the one who pressed it.
                aria-disabled={busy !== null}
                onClick={() => toggle(key)}
                // 28 px tall to the eye, 44 px to a thumb (WCAG 2.5.5): the ::after reaches 8 px above and below.
                className={`relative inline-flex h-7 w-12 shrink-0 items-center rounded-full border-2 after:absolute after:-inset-y-2.5 after:-inset-x-0.5 after:content-empty transition-colors focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand ${busy !== null ? 'opacity-60' : ''} ${
                  on ? 'border-brand bg-brand' : 'border-muted bg-surface'
                }`}
              >
                <span
                  aria-hidden="true"
                  className={`inline-block h-5 w-5 rounded-full transition-transform ${
                    on ? 'translate-x-5 bg-[var(--c-brand-ink)]' : 'translate-x-0.5 bg-[var(--c-muted)]'
                  }`}
                />
              </button>
            </li>
          )
        })}
      </ul>
      <MessageLine message={message} />
    </SectionCard>
  )
}
