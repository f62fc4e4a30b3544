import { useEffect, useState } from 'react'

/** docs/product.md#account-page: profile save and failure messages clear themselves after 3 seconds. */
export const MESSAGE_MS = 3000

export interface TimedMessage {
  text: string
  kind: 'success' | 'error'
}

export function useTimedMessage() {
  const [message, setMessage] = useState<TimedMessage | null>(null)
  useEffect(() => {
    if (!message) return
    const timer = window.setTimeout(() => setMessage(null), MESSAGE_MS)
    return () => window.clearTimeout(timer)
  }, [message])
  return [message, setMessage] as const
}

/** The message area: always in the DOM, so screen readers announce what appears in it. */
export function MessageLine({ message }: { message: TimedMessage | null }) {
  return (
    <p
      role="status"
      className={`mt-3 min-h-6 text-sm font-semibold ${message?.kind === 'error' ? 'text-danger' : 'text-success'}`}
    >
      {message?.text ?? ''}
    </p>
  )
}
