/**
 * The built-in mail stand-in: each message is written to `${dataDir}/outbox/` as a .eml file (opens in
 * any mail client) with a .json copy beside it, and one line is logged. Nothing leaves the machine.
 */
import { randomBytes } from 'node:crypto'
import { readdir, readFile, rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { Clock } from '../lib/clock'
import { log } from '../lib/log'
import { writeWhole } from '../lib/whole-file'
import { assertDeliverable, type Mailer, type MailMessage } from './types'

export function createOutboxMailer(options: {
  dataDir: string
  from: string
  clock?: Clock
  log?: (line: string) => void
}): Mailer {
  const dir = resolve(options.dataDir, 'outbox')
  // nodemailer's stream transport builds the raw RFC 5322 message without sending it anywhere. It is
  // loaded with the first message (about 20 MB of memory), not at start: a shop at rest sends nothing.
  let composer: ReturnType<typeof createComposer> | null = null
  const createComposer = () =>
    import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    )
  return {
    name: 'outbox',
    async send(message: MailMessage) {
      assertDeliverable(message)
      const now = options.clock?.now() ?? new Date()
      composer ??= createComposer()
      const info = await (await composer).sendMail({ from: options.from, ...message, date: now })
      const base = `${now.toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}`
      const emlPath = join(dir, `${base}.eml`)
      // Written whole (api/lib/whole-file.ts): a full disk must not leave a cut-off message looking sent;
      // the job writes it again once there is room.
      await writeWhole(emlPath, info.message as Buffer)
      await writeWhole(
        join(dir, `${base}.json`),
        `${JSON.stringify({ from: options.from, ...message, date: now.toISOString() }, null, 2)}\n`,
      )
      // The recipient stays out of the log: an address is personal data.
      if (options.log) options.log(`"${message.subject}" written to ${emlPath}`)
      else log.info('mail written to outbox', { subject: message.subject, file: emlPath })
    },

    /**
     * The messages about the customer removed, each .json copy with its .eml file: those whose Message-ID
     * names one of their orders, and those to their address about no order (Mailer.forgetCustomer).
     */
    async forgetCustomer({ email, orderReferences }): Promise<void> {
      const address = email.trim().toLowerCase()
      const ofTheirOrders = orderReferences.map((reference) => `<order-${reference}-`)
      let names: string[]
      try {
        names = await readdir(dir)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
        throw error
      }
      for (const name of names.filter((each) => each.endsWith('.json'))) {
        const path = join(dir, name)
        const copy = await readFile(path, 'utf8')
          .then((text) => JSON.parse(text) as { to?: unknown; messageId?: unknown })
          .catch(() => null)
        if (!copy) continue
        const about = typeof copy.messageId === 'string' ? copy.messageId : ''
        const theirs = about.startsWith('<order-')
          ? ofTheirOrders.some((prefix) => about.startsWith(prefix))
          : typeof copy.to === 'string' && copy.to.trim().toLowerCase() === address
        if (!theirs) continue
        await rm(join(dir, `${name.slice(0, -'.json'.length)}.eml`), { force: true })
        await rm(path, { force: true })
      }
    },
  }
}
