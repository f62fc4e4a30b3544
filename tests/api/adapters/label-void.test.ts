// Voiding a label: through Shippo's refund API (the real `shippo` SDK against the fake Shippo API), and at
// the built-in carrier, which keeps its void beside the label file so it survives a restart. Either way a
// label is voided once: asking again answers the first void.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRateTableShipping } from '../../../api/adapters/rate-table'
import { createShippoShipping } from '../../../api/adapters/shippo'
import { createShippoShippingOnDemand } from '../../../api/adapters/shippo-on-demand'
import {
  type LabelRequest,
  type LabelVoid,
  type PurchasedLabel,
  type ShippingProvider,
  ShippingProviderError,
  UnknownLabelError,
} from '../../../api/adapters/types'
import { type FakeShippo, startFakeShippo } from '../../fakes/shippo'

const ADDRESS = {
  name: 'Dana Cole',
  street1: '500 Howard St',
  city: 'San Francisco',
  state: 'CA',
  zip: '94107',
  country: 'US',
}
const PARCEL = { weightOz: 3.8, lengthIn: 7, widthIn: 4.25, heightIn: 1 }

function labelRequest(reference: string): LabelRequest {
  return { reference, serviceToken: 'usps_ground_advantage', parcel: PARCEL, address: ADDRESS }
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (caught: unknown) => caught,
  )
}

describe('Shippo label voids', () => {
  let shippo: FakeShippo
  let carrier: ShippingProvider
  beforeAll(() => {
    shippo = startFakeShippo()
    carrier = createShippoShipping({ apiKey: shippo.apiKey, serverURL: shippo.url })
  })
  afterAll(() => shippo.stop())

  test('a bought label names its Shippo transaction, and voiding it asks Shippo for its refund', async () => {
    const label = await carrier.buyLabel(labelRequest('000101'))
    const transaction = shippo.transactions[0]
    expect(label.labelId).toBe(transaction?.object_id as string)

    const voided = await carrier.voidLabel({
      reference: '000101',
      trackingNumber: label.trackingNumber,
      labelId: label.labelId,
    })
    const sent = shippo.requests.filter((request) => request.method === 'POST' && request.path === '/refunds')
    expect(sent.map((request) => request.body)).toEqual([{ transaction: label.labelId, async: false }])
    expect(voided).toEqual({
      id: shippo.refunds[0]?.object_id as string,
      labelId: label.labelId,
      status: 'queued',
      alreadyVoided: false,
    })
    expect(shippo.transactions[0]?.status).toBe('REFUNDPENDING')
  })

  test('voiding it again answers the first void: one refund at Shippo', async () => {
    const label = await carrier.buyLabel(labelRequest('000102'))
    const target = { reference: '000102', trackingNumber: label.trackingNumber, labelId: label.labelId }
    const before = shippo.refunds.length
    const first = await carrier.voidLabel(target)
    const again = await Promise.all([carrier.voidLabel(target), carrier.voidLabel(target)])
    expect(first.alreadyVoided).toBe(false)
    for (const answer of again) {
      expect(answer).toEqual({ id: null, labelId: label.labelId, status: 'pending', alreadyVoided: true })
    }
    expect(shippo.refunds.length).toBe(before + 1)
  })

  test('two voids at once: one refund at Shippo, both told the label is voided', async () => {
    const label = await carrier.buyLabel(labelRequest('000103'))
    const target = { reference: '000103', trackingNumber: label.trackingNumber, labelId: label.labelId }
    const before = shippo.refunds.length
    const answers = await Promise.all([carrier.voidLabel(target), carrier.voidLabel(target)])
    expect(shippo.refunds.length).toBe(before + 1)
    expect(answers.filter((answer) => !answer.alreadyVoided)).toHaveLength(1)
    for (const answer of answers) expect(['queued', 'pending']).toContain(answer.status)
  })

  test('a label kept without its transaction id is found by order reference and tracking number', async () => {
    const label = await carrier.buyLabel(labelRequest('000104'))
    await carrier.buyLabel(labelRequest('000105'))
    shippo.refundStatus = 'SUCCESS'
    try {
      const voided = await carrier.voidLabel({ reference: '000104', trackingNumber: label.trackingNumber })
      expect(voided).toMatchObject({ labelId: label.labelId, status: 'success', alreadyVoided: false })
      expect(
        await carrier.voidLabel({ reference: '000104', trackingNumber: label.trackingNumber }),
      ).toMatchObject({
        status: 'success',
        alreadyVoided: true,
      })
    } finally {
      shippo.refundStatus = 'QUEUED'
    }
  })

  test('a voided label is not found again as the order’s label', async () => {
    const label = await carrier.buyLabel(labelRequest('000106'))
    expect((await carrier.findLabel('000106'))?.labelId).toBe(label.labelId)
    await carrier.voidLabel({
      reference: '000106',
      trackingNumber: label.trackingNumber,
      labelId: label.labelId,
    })
    expect(await carrier.findLabel('000106')).toBeNull()
  })

  test('a void the carrier refuses answers error, and is not asked again', async () => {
    const label = await carrier.buyLabel(labelRequest('000107'))
    shippo.refundStatus = 'ERROR'
    try {
      const target = { reference: '000107', trackingNumber: label.trackingNumber, labelId: label.labelId }
      expect(await carrier.voidLabel(target)).toMatchObject({ status: 'error', alreadyVoided: false })
      const before = shippo.refunds.length
      expect(await carrier.voidLabel(target)).toMatchObject({ status: 'error', alreadyVoided: true })
      expect(shippo.refunds.length).toBe(before)
    } finally {
      shippo.refundStatus = 'QUEUED'
    }
  })

  test('an unknown label, or one that is not the order’s, is UnknownLabelError', async () => {
    expect(
      await rejection(
        carrier.voidLabel({ reference: '000199', trackingNumber: '9400000', labelId: 'f'.repeat(32) }),
      ),
    ).toBeInstanceOf(UnknownLabelError)
    expect(
      await rejection(carrier.voidLabel({ reference: '000199', trackingNumber: '9400000' })),
    ).toBeInstanceOf(UnknownLabelError)
    const label = await carrier.buyLabel(labelRequest('000108'))
    expect(
      await rejection(
        carrier.voidLabel({ reference: '000108', trackingNumber: '9400999', labelId: label.labelId }),
      ),
    ).toBeInstanceOf(UnknownLabelError)
  })

  test('Shippo out of reach is a ShippingProviderError, and nothing is voided', async () => {
    const label = await carrier.buyLabel(labelRequest('000109'))
    const wrongKey = createShippoShipping({ apiKey: 'shippo_test_wrong', serverURL: shippo.url })
    const error = await rejection(
      wrongKey.voidLabel({
        reference: '000109',
        trackingNumber: label.trackingNumber,
        labelId: label.labelId,
      }),
    )
    expect(error).toBeInstanceOf(ShippingProviderError)
    expect(error).not.toBeInstanceOf(UnknownLabelError)
    expect(shippo.transactions.find((t) => t.object_id === label.labelId)?.status).toBe('SUCCESS')
  })

  test('the on-demand adapter voids through the same SDK', async () => {
    const onDemand = createShippoShippingOnDemand({ apiKey: shippo.apiKey, serverURL: shippo.url })
    const label = await onDemand.buyLabel(labelRequest('000110'))
    expect(
      await onDemand.voidLabel({
        reference: '000110',
        trackingNumber: label.trackingNumber,
        labelId: label.labelId,
      }),
    ).toMatchObject({ labelId: label.labelId, status: 'queued', alreadyVoided: false })
  })
})

describe('the built-in carrier’s voids', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'label-void-'))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  test('a label is voided once, and the void survives a restart', async () => {
    const carrier = createRateTableShipping({ dataDir })
    const label: PurchasedLabel = await carrier.buyLabel(labelRequest('000201'))
    expect(label.labelId).toBe(label.trackingNumber)
    const target = { reference: '000201', trackingNumber: label.trackingNumber, labelId: label.labelId }

    const first = await carrier.voidLabel(target)
    expect(first).toMatchObject({ labelId: label.trackingNumber, status: 'success', alreadyVoided: false })
    expect(first.id).toMatch(/^void_/)
    expect(await carrier.voidLabel(target)).toEqual({ ...first, alreadyVoided: true })

    // A new process: the record is on disk beside the label.
    const restarted = createRateTableShipping({ dataDir })
    expect(await restarted.voidLabel(target)).toEqual({ ...first, alreadyVoided: true })
    expect(await restarted.voidLabel({ reference: '000201', trackingNumber: label.trackingNumber })).toEqual({
      ...first,
      alreadyVoided: true,
    })
    // The label's PDF stays, for the record; no half-written file is left behind.
    expect(existsSync(new URL(label.labelUrl))).toBe(true)
    expect(readdirSync(join(dataDir, 'labels')).filter((name) => name.includes('partial'))).toEqual([])
  })

  test('ten voids at once: one void, nine told it was already voided', async () => {
    const carrier = createRateTableShipping({ dataDir })
    const label = await carrier.buyLabel(labelRequest('000202'))
    const answers: LabelVoid[] = await Promise.all(
      Array.from({ length: 10 }, () =>
        createRateTableShipping({ dataDir }).voidLabel({
          reference: '000202',
          trackingNumber: label.trackingNumber,
        }),
      ),
    )
    expect(answers.filter((answer) => !answer.alreadyVoided)).toHaveLength(1)
    expect(new Set(answers.map((answer) => answer.id)).size).toBe(1)
  })

  test('a voided label is not found again as the order’s label', async () => {
    const carrier = createRateTableShipping({ dataDir })
    const label = await carrier.buyLabel(labelRequest('000203'))
    expect(await carrier.findLabel('000203')).toEqual(label)
    await carrier.voidLabel({ reference: '000203', trackingNumber: label.trackingNumber })
    expect(await carrier.findLabel('000203')).toBeNull()
  })

  test('an unknown label, or a mismatched one, is UnknownLabelError', async () => {
    const carrier = createRateTableShipping({ dataDir })
    const label = await carrier.buyLabel(labelRequest('000204'))
    for (const target of [
      { reference: '000299', trackingNumber: label.trackingNumber },
      { reference: '000204', trackingNumber: '9400111122223333444455' },
      { reference: '000204', trackingNumber: label.trackingNumber, labelId: '9400111122223333444455' },
      { reference: '../000204', trackingNumber: label.trackingNumber },
      { reference: '000204', trackingNumber: `${label.trackingNumber}/../x` },
    ]) {
      expect(await rejection(carrier.voidLabel(target))).toBeInstanceOf(UnknownLabelError)
    }
    expect(
      await rejection(
        createRateTableShipping({ dataDir: join(dataDir, 'none') }).voidLabel({
          reference: '1',
          trackingNumber: '2',
        }),
      ),
    ).toBeInstanceOf(UnknownLabelError)
  })
})
