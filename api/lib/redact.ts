/**
 * Log lines must not carry personal data (SECURITY.md#what-is-protected-and-how). Errors from outside services often quote what they
 * were given — a mail server names the mailbox it refused, a payment provider the e-mail it found invalid —
 * so any text that came from such an error goes through here before it is logged.
 */

// Anything shaped like an address: the local part may be quoted or contain +tags; the domain has a dot.
const EMAIL_LIKE = /(?:"[^"\r\n]*"|[^\s<>()[\]\\,;:"@]+)@[^\s<>()[\]\\,;:"@]+\.[^\s<>()[\]\\,;:"@]+/g

/** The text with every e-mail address replaced by `[e-mail]`. */
export function withoutPersonalData(text: string): string {
  return text.replace(EMAIL_LIKE, '[e-mail]')
}
