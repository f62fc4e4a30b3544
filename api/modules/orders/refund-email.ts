/** The refund and cancellation e-mails, as plain text and HTML with the same content. */
import { lineLabel } from '@core/rules/catalog'
import { escapeHtml } from '@core/rules/html'
import { formatCents } from '@core/rules/money'
import { formatOrderNumber } from '@core/rules/order-status'
import type { MailMessage } from '../../adapters/types'
import { type MailShop, orderPageUrl } from './email'

export interface RefundMailOrder {
  id: number
  /** Keys the Message-ID: the number alone comes back after a restored backup. */
  uid: string
  userId: string | null
  email: string
  customerName: string
}

export interface RefundMail {
  id: string
  amountCents: number
  lines: { name: string; variant: string | null; quantity: number }[]
}

/** Card refunds reach the statement in days, not at once: said in both e-mails. */
const WHEN_IT_SHOWS = 'Refunds usually show on your statement within 5 to 10 business days.'

function mail(
  order: RefundMailOrder,
  shop: MailShop,
  parts: { subject: string; heading: string; paragraphs: string[]; kind: string },
): MailMessage {
  const number = formatOrderNumber(order.id)
  const page = order.userId ? orderPageUrl(shop.publicUrl, order.id) : null
  const closing = `Questions? Reply to this e-mail or visit ${shop.publicUrl}.`
  const text = [
    parts.heading,
    '',
    `Order number: ${number}`,
    '',
    ...parts.paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...(page ? [`See your order any time: ${page}`, ''] : []),
    closing,
    '',
    'Grit & Whisker',
  ].join('\n')
  const html = `<!doctype html>
<html lang="en"><body style="font-family:Arial,Helvetica,sans-serif;color:#1c1917;line-height:1.5">
<h1 style="font-size:22px">${escapeHtml(parts.heading)}</h1>
<p>Order number: <strong>${number}</strong></p>
${parts.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('\n')}
${page ? `<p><a href="${escapeHtml(page)}">See your order</a> any time in your account.</p>\n` : ''}<p>Questions? Reply to this e-mail or visit <a href="${escapeHtml(shop.publicUrl)}">${escapeHtml(shop.publicUrl)}</a>.</p>
<p>Grit &amp; Whisker</p>
</body></html>`
  return {
    to: order.email,
    subject: parts.subject,
    text,
    html,
    messageId: `<order-${number}-${order.uid}-${parts.kind}@${shop.messageIdDomain}>`,
  }
}

function firstName(order: RefundMailOrder): string {
  return order.customerName.split(' ')[0] || order.customerName
}

/** 'We have refunded $12.50', with the items it was for; one message per refund (its id keys the Message-ID). */
export function orderRefundEmail(order: RefundMailOrder, refund: RefundMail, shop: MailShop): MailMessage {
  const items = refund.lines.map((line) => `${line.quantity} x ${lineLabel(line)}`)
  return mail(order, shop, {
    subject: `Your Grit & Whisker refund for order ${formatOrderNumber(order.id)}`,
    heading: `${firstName(order)}, we have refunded ${formatCents(refund.amountCents)}`,
    paragraphs: [
      `We have refunded ${formatCents(refund.amountCents)} to the card you paid with${items.length > 0 ? ` for: ${items.join(', ')}` : ''}.`,
      WHEN_IT_SHOWS,
    ],
    kind: `refund-${refund.id}`,
  })
}

/** 'Your order is cancelled', with what is being refunded (nothing when it was refunded before). */
export function orderCancelledEmail(
  order: RefundMailOrder,
  refundCents: number,
  shop: MailShop,
): MailMessage {
  return mail(order, shop, {
    subject: `Your Grit & Whisker order ${formatOrderNumber(order.id)} is cancelled`,
    heading: `${firstName(order)}, your order is cancelled`,
    paragraphs: [
      'We have cancelled your order: it will not be sent.',
      ...(refundCents > 0
        ? [`We are refunding ${formatCents(refundCents)} to the card you paid with.`, WHEN_IT_SHOWS]
        : []),
    ],
    kind: 'cancelled',
  })
}
