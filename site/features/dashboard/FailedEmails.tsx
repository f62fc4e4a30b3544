import type { FailedEmail } from './api'
import { Section } from './Section'
import { ShopTime } from './ShopTime'
import type { Polled } from './use-polling'

/**
 * docs/product.md#dashboard: order e-mails the mail server refused on every attempt, newest first, with why, and Retry,
 * which sends the order's failed e-mails again (refreshed with the numbers, every 30 s).
 */
export function FailedEmails(props: {
  state: Polled<FailedEmail[]>
  busy: ReadonlySet<number>
  onRetry: (orderId: number) => void
}) {
  const { state, busy, onRetry } = props
  const emails = state.data ?? []
  return (
    <Section
      id="failed-emails"
      title="Failed E-mails"
      loading={state.loading}
      error={state.error}
      hasData={state.data !== null}
      loadingText="Loading e-mails..."
    >
      {emails.length === 0 ? (
        <p className="text-muted">No failed e-mails: every order e-mail went out.</p>
      ) : (
        <ul className="grid gap-2" aria-label="Order e-mails that failed">
          {emails.map((email) => (
            <li
              key={email.id}
              className="rounded-md border border-line p-3 text-sm"
              data-failed-email={email.id}
            >
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-semibold">
                  {email.email}
                  {email.number && <span className="font-mono"> · #{email.number}</span>}
                </span>
                {email.orderId !== null && (
                  <button
                    type="button"
                    className="btn-primary !px-3 !py-1.5 text-xs"
                    disabled={busy.has(email.orderId)}
                    onClick={() => email.orderId !== null && onRetry(email.orderId)}
                    aria-label={`Retry the e-mails of order ${email.number}`}
                  >
                    {busy.has(email.orderId) ? 'Retrying...' : 'Retry'}
                  </button>
                )}
              </div>
              <div className="mt-1 text-xs text-muted break-all">
                {email.customerName} · {email.customerEmail}
              </div>
              <div className="mt-1 text-xs text-danger break-words">{email.error}</div>
              <div className="mt-1 text-xs text-muted">
                Gave up <ShopTime at={email.failedAt} /> after {email.attempts} attempts
              </div>
            </li>
          ))}
        </ul>
      )}
    </Section>
  )
}
