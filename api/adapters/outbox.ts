/**
 * The built-in mail stand-in: each message is written to `${dataDir}/outbox/` as a .eml file (opens in
 * any mail client) with a .json copy beside it, and one line is logged. Nothing leaves the machine.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import nodemailer from 'nodemailer'
import type { Clock } from '../lib/clock'
import { log } from '../lib/log'
import { assertDeliverable, type Mailer, type MailMessage } from './types'

export function createOutboxMailer(options: {
  dataDir: string
  from: string
  clock?: Clock
  log?: (line: string) => void
}): Mailer {
  const dir = resolve(options.dataDir, 'outbox')
  // nodemailer's stream transport builds the raw RFC 5322 message without sending it anywhere.
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
  return {
    name: 'outbox',
    async send(message: MailMessage) {
      assertDeliverable(message)
      const now = options.clock?.now() ?? new Date()
      const info = await composer.sendMail({ from: options.from, ...message, date: now })
      const base = `${now.toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}`
      await mkdir(dir, { recursive: true })
      const emlPath = join(dir, `${base}.eml`)
      await writeFile(emlPath, info.message as Buffer)
      await writeFile(
        join(dir, `${base}.json`),
        `${JSON.stringify({ from: options.from, ...message, date: now.toISOString() }, null, 2)}\n`,
      )
      // The recipient stays out of the log: an address is personal data.
      if (options.log) options.log(`"${message.subject}" written to ${emlPath}`)
      else log.info('mail written to outbox', { subject: message.subject, file: emlPath })
    },
  }
}
