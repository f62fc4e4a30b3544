/** The order confirmation e-mail, as plain text and HTML with the same content. */

import { lineLabel } from '@core/rules/catalog'
import { escapeHtml } from '@core/rules/html'
import { formatCents } from '@core/rules/money'
import { formatOrderNumber } from '@core/rules/order-status'
import { postalAddressLines } from '@core/rules/postal-address'
import type { MailMessage, ShippingAddress } from '../../adapters/types'

/** What every order e-mail needs of the shop: where it is, and the domain its Message-IDs are on. */
export interface MailShop {
  publicUrl: string
  /** The shop's own mail domain (api/env.ts), never 'localhost': receivers score such IDs as spam. */
  messageIdDomain: string
}

export interface ConfirmationOrder {
  id: number
  /** Keys the Message-ID: the number alone comes back after a restored backup. */
  uid: string
  /** Set when the customer was signed in: their order page is then theirs to open. */
  userId: string | null
  email: string
  customerName: string
  shippingAddress: ShippingAddress
  subtotalCents: number
  discountCents: number
  discountCode: string | null
  shippingCents: number
  totalCents: number
  shippingService: string
  lines: { name: string; variant: string | null; unitCents: number; quantity: number }[]
}

/** The order's page for its customer (site/pages/account/orders.astro): they sign in to see it. */
export function orderPageUrl(publicUrl: string, id: number): string {
  return `${publicUrl}/account/orders?number=${formatOrderNumber(id)}`
}

/** What the confirmation says, in the order it says it: the same figures in the text and the HTML. */
interface Confirmation {
  number: string
  firstName: string
  lines: { name: string; quantity: number; total: string }[]
  /** Label and amount; the last one is the total. */
  totals: [string, string][]
  address: string[]
  /** The order's page for a customer who was signed in; a guest has no account to open it in. */
  orderPage: string | null
  publicUrl: string
}

function confirmation(order: ConfirmationOrder, publicUrl: string): Confirmation {
  const discount: [string, string][] =
    order.discountCents > 0
      ? [
          [
            `Discount${order.discountCode ? ` (${order.discountCode})` : ''}`,
            `-${formatCents(order.discountCents)}`,
          ],
        ]
      : []
  return {
    number: formatOrderNumber(order.id),
    firstName: order.customerName.split(' ')[0] || order.customerName,
    lines: order.lines.map((line) => ({
      name: lineLabel(line),
      quantity: line.quantity,
      total: formatCents(line.unitCents * line.quantity),
    })),
    totals: [
      ['Subtotal', formatCents(order.subtotalCents)],
      ...discount,
      [
        `Shipping (${order.shippingService})`,
        order.shippingCents === 0 ? 'Free' : formatCents(order.shippingCents),
      ],
      ['Total', formatCents(order.totalCents)],
    ],
    address: postalAddressLines(order.shippingAddress),
    orderPage: order.userId ? orderPageUrl(publicUrl, order.id) : null,
    publicUrl,
  }
}

function confirmationText(c: Confirmation): string {
  return [
    `Thanks for your order, ${c.firstName}!`,
    '',
    `Order number: ${c.number}`,
    '',
    ...c.lines.map((line) => `${line.quantity} x ${line.name}  ${line.total}`),
    '',
    ...c.totals.map(([label, value]) => `${label}: ${value}`),
    '',
    'Shipping to:',
    ...c.address,
    '',
    'Your order ships within 1-2 business days.',
    ...(c.orderPage ? ['', `See your order any time: ${c.orderPage}`] : []),
    '',
    `Questions? Reply to this e-mail or visit ${c.publicUrl}.`,
    '',
    'Grit & Whisker',
  ].join('\n')
}

function confirmationHtml(c: Confirmation): string {
  const cell = 'padding:4px 8px;border-bottom:1px solid #ddd'
  const last = c.totals.length - 1
  const strongIfLast = (text: string, index: number) => (index === last ? `<strong>${text}</strong>` : text)
  return `<!doctype html>
<html lang="en"><body style="font-family:Arial,Helvetica,sans-serif;color:#1c1917;line-height:1.5">
<h1 style="font-size:22px">Thanks for your order, ${escapeHtml(c.firstName)}!</h1>
<p>Order number: <strong>${c.number}</strong></p>
<table style="border-collapse:collapse" role="presentation">
${c.lines
  .map(
    (line) =>
      `<tr><td style="${cell}">${line.quantity} &times; ${escapeHtml(line.name)}</td><td style="${cell};text-align:right">${line.total}</td></tr>`,
  )
  .join('\n')}
${c.totals
  .map(
    ([label, value], index) =>
      `<tr><td style="${cell}">${strongIfLast(escapeHtml(label), index)}</td><td style="${cell};text-align:right">${strongIfLast(value, index)}</td></tr>`,
  )
  .join('\n')}
</table>
<h2 style="font-size:16px">Shipping to</h2>
<p>${c.address.map(escapeHtml).join('<br>')}</p>
<p>Your order ships within 1-2 business days.</p>
${c.orderPage ? `<p><a href="${escapeHtml(c.orderPage)}">See your order</a> any time in your account.</p>\n` : ''}<p>Questions? Reply to this e-mail or visit <a href="${escapeHtml(c.publicUrl)}">${escapeHtml(c.publicUrl)}</a>.</p>
<p>Grit &amp; Whisker</p>
</body></html>`
}

export function orderConfirmationEmail(order: ConfirmationOrder, shop: MailShop): MailMessage {
  const c = confirmation(order, shop.publicUrl)
  return {
    to: order.email,
    subject: `Your Grit & Whisker order ${c.number}`,
    text: confirmationText(c),
    html: confirmationHtml(c),
    messageId: `<order-${c.number}-${order.uid}-confirmation@${shop.messageIdDomain}>`,
  }
}

export interface ShippedOrder {
  id: number
  /** Keys the Message-ID: the number alone comes back after a restored backup. */
  uid: string
  email: string
  customerName: string
  shippingAddress: ShippingAddress
  shippingCarrier: string
  shippingService: string
  shippoTrackingNumber: string | null
  /** The carrier's tracking page for this parcel, as the label purchase gave it. */
  trackingUrl: string | null
}

/** The big carriers' public tracking pages by number: for labels bought before their link was kept. */
const TRACKING_PAGES: [RegExp, (number: string) => string][] = [
  [/^usps\b/i, (number) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${number}`],
  [/^ups\b/i, (number) => `https://www.ups.com/track?tracknum=${number}`],
  [/^fedex\b/i, (number) => `https://www.fedex.com/fedextrack/?trknbr=${number}`],
  [
    /^dhl/i,
    (number) => `https://www.dhl.com/us-en/home/tracking/tracking-express.html?tracking-id=${number}`,
  ],
]

/** Where the customer follows the parcel: the label's own link when it is a web address, else the carrier's page. */
export function trackingLink(
  order: Pick<ShippedOrder, 'shippingCarrier' | 'shippoTrackingNumber' | 'trackingUrl'>,
) {
  if (order.trackingUrl && /^https?:\/\//i.test(order.trackingUrl)) return order.trackingUrl
  const number = order.shippoTrackingNumber
  if (!number) return null
  const page = TRACKING_PAGES.find(([carrier]) => carrier.test(order.shippingCarrier))?.[1]
  return page ? page(encodeURIComponent(number)) : null
}

/** 'Your order has shipped', with the carrier and the tracking number; every customer value is escaped. */
export function orderShippedEmail(order: ShippedOrder, shop: MailShop): MailMessage {
  const { publicUrl } = shop
  const number = formatOrderNumber(order.id)
  const firstName = order.customerName.split(' ')[0] || order.customerName
  const tracking = order.shippoTrackingNumber
  const link = trackingLink(order)
  const address = postalAddressLines(order.shippingAddress)

  const text = [
    `Good news, ${firstName}: your order is on its way!`,
    '',
    `Order number: ${number}`,
    `Carrier: ${order.shippingCarrier} (${order.shippingService})`,
    ...(tracking ? [`Tracking number: ${tracking}`] : []),
    ...(link ? [`Track it: ${link}`] : []),
    '',
    'Shipping to:',
    ...address,
    '',
    `Questions? Reply to this e-mail or visit ${publicUrl}.`,
    '',
    'Grit & Whisker',
  ].join('\n')

  const html = `<!doctype html>
<html lang="en"><body style="font-family:Arial,Helvetica,sans-serif;color:#1c1917;line-height:1.5">
<h1 style="font-size:22px">Good news, ${escapeHtml(firstName)}: your order is on its way!</h1>
<p>Order number: <strong>${number}</strong></p>
<p>Carrier: ${escapeHtml(order.shippingCarrier)} (${escapeHtml(order.shippingService)})</p>
${tracking ? `<p>Tracking number: <strong>${escapeHtml(tracking)}</strong></p>` : ''}
${link ? `<p><a href="${escapeHtml(link)}">Track your parcel</a></p>` : ''}
<h2 style="font-size:16px">Shipping to</h2>
<p>${address.map(escapeHtml).join('<br>')}</p>
<p>Questions? Reply to this e-mail or visit <a href="${escapeHtml(publicUrl)}">${escapeHtml(publicUrl)}</a>.</p>
<p>Grit &amp; Whisker</p>
</body></html>`

  return {
    to: order.email,
    subject: `Your Grit & Whisker order ${number} has shipped`,
    text,
    html,
    messageId: `<order-${number}-${order.uid}-shipped@${shop.messageIdDomain}>`,
  }
}
