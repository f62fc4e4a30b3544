/**
 * A local SMTP server that accepts every message and keeps it, so tests send real mail through the real
 * nodemailer adapter and assert on what arrived.
 */
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
  from: string
  to: string[]
  /** The raw RFC 5322 message. */
  raw: string
  subject: string
}

export interface SmtpSink {
  url: string
  messages: ReceivedMail[]
  stop(): Promise<void>
}

/** The Subject header, unfolded; encoded words are left as sent. */
function subjectOf(raw: string): string {
  const headers = raw.split(/\r?\n\r?\n/)[0] ?? ''
  const match = /^subject:(.*(?:\r?\n[ \t].*)*)/im.exec(headers)
  return (match?.[1] ?? '').replace(/\r?\n[ \t]/g, ' ').trim()
}

/**
 * Starts the sink on `port` (any free one by default). Pass the messages of a sink that was stopped to
 * start it again as the same server with the same mailbox, as a mail server comes back after an outage.
 */
export async function startSmtpSink(
  options: { port?: number; messages?: ReceivedMail[] } = {},
): Promise<SmtpSink> {
  const messages: ReceivedMail[] = options.messages ?? []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
          subject: subjectOf(raw),
        })
        callback()
      })
    },
  })
  // A client that dies mid-conversation (a killed shop) resets its connection; a mail server shrugs that off.
  server.on('error', () => {})
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
