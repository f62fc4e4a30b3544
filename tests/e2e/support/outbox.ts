// playwright.config.ts starts the server with DATA_DIR=./data/e2e; the outbox mailer writes
// `${DATA_DIR}/outbox/*.json` (api/adapters/outbox.ts), one file a message.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export const OUTBOX = join(process.cwd(), 'data', 'e2e', 'outbox')

export interface OutboxMessage {
  to: string
  subject: string
  text: string
  html?: string
}

/** The messages written so far to `email`, oldest first. */
export function outboxMessagesFor(email: string): OutboxMessage[] {
  let names: string[]
  try {
    names = readdirSync(OUTBOX)
  } catch {
    return []
  }
  return names
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(OUTBOX, name), 'utf8')) as OutboxMessage)
    .filter((message) => message.to === email)
}
