/** E-mail over SMTP (`SMTP_URL`, e.g. smtps://user:pass@smtp.example.com:465) through nodemailer. */
import nodemailer from 'nodemailer'
import { assertDeliverable, type Mailer, type MailMessage } from './types'

export function createSmtpMailer(options: { smtpUrl: string; from: string }): Mailer {
  const transport = nodemailer.createTransport(options.smtpUrl)
  return {
    name: 'smtp',
    async send(message: MailMessage) {
      assertDeliverable(message)
      await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        ...(message.messageId ? { messageId: message.messageId } : {}),
      })
    },
  }
}
