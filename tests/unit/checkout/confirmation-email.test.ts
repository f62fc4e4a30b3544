import { describe, expect, test } from 'bun:test'
import { orderConfirmationEmail, orderShippedEmail } from '../../../api/modules/orders/email'

const SHOP = { publicUrl: 'https://shop.example', messageIdDomain: 'gritandwhisker.example' }

const ORDER = {
  id: 42,
  uid: '3f9c0b7e5a1d2c4b6e8f',
  userId: null,
  email: 'dana@example.com',
  customerName: 'Dana <b>Cole</b>',
  shippingAddress: {
    name: 'Dana <b>Cole</b>',
    street1: '12 Mill Rd',
    street2: 'Unit 3',
    city: 'Dayton',
    state: 'OH',
    zip: '45402',
    country: 'US',
  },
  subtotalCents: 5200,
  discountCents: 520,
  discountCode: 'CREW10',
  shippingCents: 0,
  totalCents: 4680,
  shippingService: 'USPS Ground Advantage',
  lines: [
    { name: 'Hammered Citrus', variant: 'Cedar Shop', unitCents: 2100, quantity: 2 },
    { name: 'Alpine Wash', variant: null, unitCents: 1000, quantity: 1 },
  ],
}

describe('order confirmation e-mail', () => {
  const mail = orderConfirmationEmail(ORDER, SHOP)

  test('goes to the customer with the padded order number', () => {
    expect(mail.to).toBe('dana@example.com')
    expect(mail.subject).toBe('Your Grit & Whisker order 000042')
  })

  test("its Message-ID is the order's uid as well as its number, which a restored backup uses again", () => {
    expect(mail.messageId).toBe('<order-000042-3f9c0b7e5a1d2c4b6e8f-confirmation@gritandwhisker.example>')
  })

  test('text lists lines, totals, address and the shipping promise', () => {
    expect(mail.text).toContain('Order number: 000042')
    expect(mail.text).toContain('2 x Hammered Citrus (Cedar Shop)  $42.00')
    expect(mail.text).toContain('1 x Alpine Wash  $10.00')
    expect(mail.text).toContain('Subtotal: $52.00')
    expect(mail.text).toContain('Discount (CREW10): -$5.20')
    expect(mail.text).toContain('Shipping (USPS Ground Advantage): Free')
    expect(mail.text).toContain('Total: $46.80')
    expect(mail.text).toContain('12 Mill Rd\nUnit 3\nDayton, OH 45402\nUS')
    expect(mail.text).toContain('ships within 1-2 business days')
  })

  test('a variant that only repeats the product name is not said twice', () => {
    const oneScent = orderConfirmationEmail(
      {
        ...ORDER,
        lines: [{ name: 'Hammered Citrus', variant: 'Hammered Citrus', unitCents: 2100, quantity: 1 }],
      },
      SHOP,
    )
    expect(oneScent.text).toContain('1 x Hammered Citrus  $21.00')
    expect(oneScent.text).not.toContain('(Hammered Citrus)')
  })

  test('HTML has the same content with customer text escaped', () => {
    expect(mail.html).toContain('<strong>000042</strong>')
    expect(mail.html).toContain('Dana &lt;b&gt;Cole&lt;/b&gt;')
    expect(mail.html).not.toContain('<b>Cole</b>')
    expect(mail.html).toContain('$46.80')
    expect(mail.html).toContain('ships within 1-2 business days')
  })

  test('paid shipping and no discount read as such', () => {
    const plain = orderConfirmationEmail(
      { ...ORDER, discountCents: 0, discountCode: null, shippingCents: 640, totalCents: 5840 },
      SHOP,
    )
    expect(plain.text).not.toContain('Discount')
    expect(plain.text).toContain('Shipping (USPS Ground Advantage): $6.40')
  })
})

describe("the shop's own Message-ID", () => {
  test('on the domain it sends from, not the host it answers on', () => {
    const local = orderConfirmationEmail(ORDER, {
      publicUrl: 'http://localhost:4321',
      messageIdDomain: 'gritandwhisker.example',
    })
    expect(local.messageId).toBe('<order-000042-3f9c0b7e5a1d2c4b6e8f-confirmation@gritandwhisker.example>')
    expect(orderShippedEmail(SHIPPED, SHOP).messageId).toBe(
      '<order-000042-3f9c0b7e5a1d2c4b6e8f-shipped@gritandwhisker.example>',
    )
  })
})

describe('the confirmation links to the order page', () => {
  const link = 'https://shop.example/account/orders?number=000042'

  test('for an order placed signed in', () => {
    const mail = orderConfirmationEmail({ ...ORDER, userId: 'user-7' }, SHOP)
    expect(mail.text).toContain(`See your order any time: ${link}`)
    expect(mail.html).toContain(`<a href="${link}">See your order</a>`)
  })

  test('not for a guest, who has no account to see it in', () => {
    const mail = orderConfirmationEmail(ORDER, SHOP)
    expect(mail.text).not.toContain('/account/orders')
    expect(mail.html).not.toContain('/account/orders')
  })
})

const SHIPPED = {
  id: 42,
  uid: '3f9c0b7e5a1d2c4b6e8f',
  email: 'dana@example.com',
  customerName: 'Dana Cole',
  shippingAddress: ORDER.shippingAddress,
  shippingCarrier: 'UPS',
  shippingService: 'UPS Ground',
  shippoTrackingNumber: '1Z999AA10123456784',
  trackingUrl: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
}

describe('the shipping e-mail carries the tracking link', () => {
  test("the carrier's own, from the label", () => {
    const mail = orderShippedEmail(SHIPPED, SHOP)
    expect(mail.text).toContain('Tracking number: 1Z999AA10123456784')
    expect(mail.text).toContain('Track it: https://www.ups.com/track?tracknum=1Z999AA10123456784')
    expect(mail.html).toContain(
      '<a href="https://www.ups.com/track?tracknum=1Z999AA10123456784">Track your parcel</a>',
    )
  })

  test("a label from before links were kept: the carrier's public page for the number", () => {
    const usps = orderShippedEmail(
      {
        ...SHIPPED,
        shippingCarrier: 'USPS',
        shippoTrackingNumber: '9400100000000000000001',
        trackingUrl: null,
      },
      SHOP,
    )
    expect(usps.text).toContain(
      'Track it: https://tools.usps.com/go/TrackConfirmAction?tLabels=9400100000000000000001',
    )
    const ups = orderShippedEmail({ ...SHIPPED, trackingUrl: null }, SHOP)
    expect(ups.text).toContain('Track it: https://www.ups.com/track?tracknum=1Z999AA10123456784')
  })

  test('only a web address is linked: anything else from a carrier is left out', () => {
    const mail = orderShippedEmail(
      { ...SHIPPED, shippingCarrier: 'Acme', trackingUrl: 'javascript:alert(1)' },
      SHOP,
    )
    expect(mail.html).not.toContain('javascript:')
    expect(mail.text).not.toContain('Track it:')
    expect(mail.text).toContain('Tracking number: 1Z999AA10123456784')
  })
})
