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

export interface SmtpSinkOptions {
  /** Recipients refused at RCPT TO the way a real server refuses an unknown mailbox (550 5.1.1). */
  rejectRecipients?: (address: string) => boolean
  /** The port to listen on (any free one by default): a sink started again on its old port is the same server. */
  port?: number
  /** The mailbox of a sink that was stopped, so one started again keeps what arrived before the outage. */
  messages?: ReceivedMail[]
}

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const messages: ReceivedMail[] = options.messages ?? []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!options.rejectRecipients?.(address.address)) return callback()
      // Real servers name the refused mailbox in their answer, so the sender's error carries it.
      const error = Object.assign(
        new Error(`5.1.1 <${address.address}>: Recipient address rejected: User unknown`),
        { responseCode: 550 },
      )
      callback(error)
    },
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
