// The drills' "doubled" figure: counted from the provider's, the mail server's and the carrier's records,
// so a second charge, e-mail or label for one paid session shows, where an order count per session could not.
import { describe, expect, test } from 'bun:test'
import { doubledIn, mailRecord, tallyRecords } from '../../drills/support/tally'

const sessions = [
  { sessionId: 'cs_test_a', email: 'a@example.com' },
  { sessionId: 'cs_test_b', email: 'b@example.com' },
]
const confirmation = (n: number, uid: string, to: string) => ({
  to: [to],
  messageId: `<order-00000${n}-${uid}-confirmation@shop.test>`,
})
const once = {
  sessions,
  charges: [{ email: 'a@example.com' }, { email: 'B@example.com' }],
  mails: [confirmation(1, 'aa', 'a@example.com'), confirmation(2, 'bb', 'b@example.com')],
  labels: [{ sessionId: 'cs_test_a' }, { sessionId: 'cs_test_b' }],
}

describe('what the drills count as doubled', () => {
  test('one charge, one confirmation and one label per session is nothing doubled', () => {
    const tally = tallyRecords(once)
    expect(tally.perSession.get('cs_test_a')).toEqual({ charges: 1, emails: 1, labels: 1 })
    expect(doubledIn(tally)).toBe(0)
  })

  test('a confirmation sent again with the same Message-ID is one message to the customer, not two', () => {
    const mails = [...once.mails, confirmation(1, 'aa', 'a@example.com')]
    expect(doubledIn(tallyRecords({ ...once, mails }))).toBe(0)
  })

  test('a second charge, a second distinct confirmation or a second label for one session each count', () => {
    expect(doubledIn(tallyRecords({ ...once, charges: [...once.charges, { email: 'a@example.com' }] }))).toBe(
      1,
    )
    expect(
      doubledIn(tallyRecords({ ...once, mails: [...once.mails, confirmation(3, 'cc', 'b@example.com')] })),
    ).toBe(1)
    expect(doubledIn(tallyRecords({ ...once, labels: [...once.labels, { sessionId: 'cs_test_b' }] }))).toBe(1)
  })

  test('work no paid session accounts for is doubled too; other e-mails are not counted', () => {
    const stray = tallyRecords({
      ...once,
      labels: [...once.labels, { sessionId: null }],
      mails: [
        ...once.mails,
        confirmation(4, 'dd', 'nobody@example.com'),
        { to: ['a@example.com'], messageId: '<order-000001-aa-shipped@shop.test>' },
      ],
    })
    expect(stray.stray).toBe(2)
    expect(doubledIn(stray)).toBe(2)
  })

  test('an outbox message gives its recipients and Message-ID', () => {
    const raw =
      'From: shop@example.com\r\nTo: "Dana Cole" <dana@example.com>\r\nMessage-ID:\r\n <order-000042-ab12-confirmation@shop.test>\r\nSubject: x\r\n\r\nbody To: other@example.com'
    expect(mailRecord(raw)).toEqual({
      to: ['dana@example.com'],
      messageId: '<order-000042-ab12-confirmation@shop.test>',
    })
  })
})
