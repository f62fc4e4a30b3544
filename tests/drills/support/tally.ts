/**
 * What a drill's "doubled" counts: the work that could happen twice for one paid checkout session, read
 * from the records of whoever did it, not from the shop's own tables (where the UNIQUE checkout session id
 * makes a second order impossible, so counting orders per session can never find one):
 * - charges: the payment provider's paid sessions for the shopper (the demo provider's own table);
 * - e-mails: order confirmations with distinct Message-IDs that reached the mail server or the outbox for
 *   the shopper (a message sent again after a crash keeps its Message-ID: the customer sees one);
 * - labels: the label files the carrier's stand-in wrote for the session's order, not voided.
 * Work that no paid session of the drill accounts for (a label for no order, a confirmation to nobody who
 * paid) is stray, and counts as doubled too.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Client } from '@libsql/client'

/** A checkout session the drill paid, and the shopper it belongs to (one session per shopper). */
export interface PaidCheckout {
  sessionId: string
  email: string
}

/** An e-mail as the mail server or the outbox has it. */
export interface MailRecord {
  to: string[]
  messageId: string
}

export interface SessionRecords {
  charges: number
  emails: number
  labels: number
}

export interface Tally {
  perSession: Map<string, SessionRecords>
  /** Work no paid session accounts for. */
  stray: number
}

const CONFIRMATION = /^<order-\d+-[0-9a-f]+-confirmation@/

/**
 * The tally from the records: `charges` lists the shopper of each paid provider session, `labels` the
 * checkout session of each label's order (null when the label belongs to no order).
 */
export function tallyRecords(input: {
  sessions: readonly PaidCheckout[]
  charges: readonly { email: string }[]
  mails: readonly MailRecord[]
  labels: readonly { sessionId: string | null }[]
}): Tally {
  const bySession = new Map<string, SessionRecords>()
  const byEmail = new Map<string, string>()
  for (const session of input.sessions) {
    const email = session.email.toLowerCase()
    if (byEmail.has(email)) throw new Error(`two drill sessions for ${email}`)
    byEmail.set(email, session.sessionId)
    bySession.set(session.sessionId, { charges: 0, emails: 0, labels: 0 })
  }
  let stray = 0
  const count = (sessionId: string | null | undefined, field: keyof SessionRecords) => {
    const records = sessionId ? bySession.get(sessionId) : undefined
    if (records) records[field] += 1
    else stray += 1
  }
  for (const charge of input.charges) count(byEmail.get(charge.email.toLowerCase()), 'charges')
  const seen = new Set<string>()
  for (const mail of input.mails) {
    if (!CONFIRMATION.test(mail.messageId) || seen.has(mail.messageId)) continue
    seen.add(mail.messageId)
    for (const to of mail.to) count(byEmail.get(to.toLowerCase()), 'emails')
  }
  for (const label of input.labels) count(label.sessionId, 'labels')
  return { perSession: bySession, stray }
}

/** The drill's "doubled": every charge, e-mail and label beyond one per session, and every stray one. */
export function doubledIn(tally: Tally): number {
  let doubled = tally.stray
  for (const records of tally.perSession.values()) {
    doubled +=
      Math.max(0, records.charges - 1) + Math.max(0, records.emails - 1) + Math.max(0, records.labels - 1)
  }
  return doubled
}

/** Sessions with exactly one charge, one e-mail and one label: what every drill ends with. */
export function onceEach(tally: Tally): number {
  return [...tally.perSession.values()].filter(
    (records) => records.charges === 1 && records.emails === 1 && records.labels === 1,
  ).length
}

function header(raw: string, name: string): string {
  const headers = raw.split(/\r?\n\r?\n/)[0] ?? ''
  const match = new RegExp(`^${name}:(.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(headers)
  return (match?.[1] ?? '').replace(/\r?\n[ \t]/g, ' ').trim()
}

/** A raw RFC 5322 message as a MailRecord: its recipients' addresses and its Message-ID. */
export function mailRecord(raw: string, to?: string[]): MailRecord {
  const addresses = to ?? header(raw, 'to').match(/[^\s<>,"]+@[^\s<>,"]+/g) ?? []
  return { to: addresses, messageId: header(raw, 'message-id') }
}

const files = (dir: string, ending: string): string[] => {
  try {
    return readdirSync(dir).filter((name) => name.endsWith(ending))
  } catch {
    return []
  }
}

/** The messages in an outbox folder (the mail stand-in's own record). */
export function outboxMails(dataDir: string): MailRecord[] {
  const dir = join(dataDir, 'outbox')
  return files(dir, '.eml').map((name) => mailRecord(readFileSync(join(dir, name), 'utf8')))
}

/**
 * Reads the records of a drill's shop: the demo provider's paid sessions, the label files in `dataDir`
 * (each mapped to its order's checkout session through the order's uid in the file name), and `mails`.
 */
export async function tallyShop(
  db: Client,
  dataDir: string,
  sessions: readonly PaidCheckout[],
  mails: readonly MailRecord[],
): Promise<Tally> {
  const paid = await db.execute(
    "select customer_email from demo_payment_sessions where payment_status = 'paid'",
  )
  const charges = paid.rows.map((row) => ({ email: String(row.customer_email) }))
  const orders = await db.execute('select uid, checkout_session_id from orders')
  const sessionOfUid = new Map(orders.rows.map((row) => [String(row.uid), String(row.checkout_session_id)]))
  const labelsDir = join(dataDir, 'labels')
  const voided = new Set(files(labelsDir, '.pdf.void').map((name) => name.slice(0, -'.void'.length)))
  const labels = files(labelsDir, '.pdf')
    .filter((name) => !voided.has(name))
    .map((name) => {
      const uid = /^order-\d+-([0-9a-f]+)-/.exec(name)?.[1]
      return { sessionId: (uid && sessionOfUid.get(uid)) || null }
    })
  return tallyRecords({ sessions, charges, mails, labels })
}
