/** The account e-mails (password links, address confirmation), as plain text and HTML with the same content. */
import { escapeHtml } from '@core/rules/html'
import type { MailMessage } from '../../adapters/types'

function paragraphs(lines: string[], link: { href: string; label: string }): string {
  const body = lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')
  return `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">
${body}
<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>
<p style="color:#666">Grit &amp; Whisker</p>
</body></html>`
}

/** The link carries the token: the only place it ever appears outside the customer's browser. */
export function passwordResetEmail(to: string, link: string): MailMessage {
  const lines = [
    'Someone (hopefully you) asked to reset the password of your Grit & Whisker account.',
    'Choose a new password with the link below. It works once and for 1 hour.',
    'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  ]
  return {
    to,
    subject: 'Reset your Grit & Whisker password',
    text: `${lines.join('\n\n')}\n\n${link}\n\nGrit & Whisker\n`,
    html: paragraphs(lines, { href: link, label: 'Choose a new password' }),
  }
}

/**
 * From `npm run staff -- add`: staff access was given to an account whose address was never proved, so its
 * password was removed; the owner of the mailbox chooses one. The link is a reset link (one use, 1 hour).
 */
export function staffPasswordEmail(to: string, link: string): MailMessage {
  const lines = [
    'You have been given staff access to the Grit & Whisker dashboard.',
    'Choose the password of your account with the link below. It works once and for 1 hour; after that, ask for a new one with "Forgot Password" on the sign-in page.',
    'If you do not expect this, ignore this e-mail and tell the shop: nobody can sign in to the account without a password.',
  ]
  return {
    to,
    subject: 'Set your Grit & Whisker staff password',
    text: `${lines.join('\n\n')}\n\n${link}\n\nGrit & Whisker\n`,
    html: paragraphs(lines, { href: link, label: 'Choose my password' }),
  }
}

/** Sent once at sign-up (and again on request): the link proves the address belongs to the account's owner. */
export function verificationEmail(to: string, link: string): MailMessage {
  const lines = [
    'Welcome to Grit & Whisker! Please confirm that this e-mail address is yours with the link below.',
    'It works once and for 24 hours. You can send a new one from your account page.',
    'If you did not create an account with us, ignore this e-mail: nothing happens without the link.',
  ]
  return {
    to,
    subject: 'Confirm your e-mail address for Grit & Whisker',
    text: `${lines.join('\n\n')}\n\n${link}\n\nGrit & Whisker\n`,
    html: paragraphs(lines, { href: link, label: 'Confirm my e-mail address' }),
  }
}

/** An account made with Google has no password to reset; its owner is told how to sign in instead. */
export function googleAccountEmail(to: string, loginUrl: string): MailMessage {
  const lines = [
    'Someone (hopefully you) asked to reset the password of your Grit & Whisker account.',
    'Your account signs in with Google, so it has no password to reset. Use "Sign in with Google" on the sign-in page.',
    'If you did not ask for this, ignore this e-mail.',
  ]
  return {
    to,
    subject: 'Signing in to Grit & Whisker',
    text: `${lines.join('\n\n')}\n\n${loginUrl}\n\nGrit & Whisker\n`,
    html: paragraphs(lines, { href: loginUrl, label: 'Go to the sign-in page' }),
  }
}
