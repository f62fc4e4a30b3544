/** E-mail over SMTP (`SMTP_URL`, e.g. smtps://user:pass@smtp.example.com:465) through nodemailer. */
import { assertDeliverable, type Mailer, type MailMessage } from './types'

export function createSmtpMailer(options: { smtpUrl: string; from: string }): Mailer {
  // Loaded with the first message (about 20 MB of memory), not at start: a shop at rest sends nothing.
  let transport: ReturnType<typeof createTransport> | null = null
  const createTransport = () =>
    import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(options.smtpUrl))
  return {
    name: 'smtp',
    async send(message: MailMessage) {
      assertDeliverable(message)
      transport ??= createTransport()
      await (await transport).sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        ...(message.messageId ? { messageId: message.messageId } : {}),
      })
    },
    async forgetCustomer() {},
  }
}
