import { describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import {
  createRateTableShipping,
  labelPdf,
  MAX_PARCEL_OZ,
  tableRates,
  type Zone,
  zoneFor,
} from '../../../api/adapters/rate-table'
import { PaidServiceUnavailableError } from '../../../api/adapters/types'
import { PACKAGING_WEIGHT_OZ, parcelFor, shippingPriceCents } from '../../../api/modules/shipping/pricing'

const CALIFORNIA = { country: 'US', state: 'CA', zip: '94107' }
const OHIO = { country: 'US', state: 'OH', zip: '43215' }
const INDIANA_NEIGHBOUR = { country: 'US', state: 'TN', zip: '37203' }
const HAWAII = { country: 'US', state: 'HI', zip: '96813' }

function prices(weightOz: number, address: { country: string; state: string; zip: string }) {
  return Object.fromEntries(tableRates(weightOz, address).map((rate) => [rate.serviceToken, rate.priceCents]))
}

describe('zones from the Midwest workshop', () => {
  test.each([
    [OHIO, 'local'],
    [INDIANA_NEIGHBOUR, 'regional'],
    [{ state: 'NY', zip: '10001' }, 'national'],
    [CALIFORNIA, 'national'],
    [HAWAII, 'remote'],
    [{ state: 'AK', zip: '99501' }, 'remote'],
  ] as [{ state: string; zip: string }, Zone][])('%p is %p', (address, zone) => {
    expect(zoneFor(address)).toBe(zone)
  })
})

describe('domestic table', () => {
  test('three USPS services with their delivery windows', () => {
    const rates = tableRates(6.6, CALIFORNIA)
    expect(
      rates.map((rate) => [rate.serviceName, rate.estimate.minDays, rate.estimate.maxDays, rate.standard]),
    ).toEqual([
      ['USPS Ground Advantage', 3, 5, true],
      ['USPS Priority Mail', 1, 3, false],
      ['USPS Priority Mail Express', 1, 2, false],
    ])
    expect(rates.every((rate) => rate.carrier === 'USPS')).toBe(true)
  })

  test('prices by weight step and zone', () => {
    expect(prices(6.6, CALIFORNIA)).toEqual({
      usps_ground_advantage: 640,
      usps_priority: 1095,
      usps_priority_express: 3200,
    })
    expect(prices(3.8, OHIO)).toEqual({
      usps_ground_advantage: 475,
      usps_priority: 935,
      usps_priority_express: 2875,
    })
    expect(prices(4, INDIANA_NEIGHBOUR).usps_ground_advantage).toBe(515)
    expect(prices(4.1, INDIANA_NEIGHBOUR).usps_ground_advantage).toBe(585)
    expect(prices(4, HAWAII).usps_ground_advantage).toBe(825)
  })

  test('above a pound each started pound costs more', () => {
    expect(prices(16, OHIO).usps_ground_advantage).toBe(750)
    expect(prices(16.1, OHIO).usps_ground_advantage).toBe(900)
    expect(prices(40, OHIO)).toEqual({
      usps_ground_advantage: 1050,
      usps_priority: 1315,
      usps_priority_express: 4000,
    })
  })

  test('nothing to quote for an empty or over-limit parcel', () => {
    expect(tableRates(0, OHIO)).toEqual([])
    expect(tableRates(MAX_PARCEL_OZ + 0.1, OHIO)).toEqual([])
    expect(tableRates(MAX_PARCEL_OZ, OHIO)).toHaveLength(3)
  })

  test('property: heavier or farther never costs less', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_PARCEL_OZ * 10 - 1 }), (tenths) => {
        const light = prices(tenths / 10, OHIO)
        const heavy = prices((tenths + 1) / 10, OHIO)
        const far = prices(tenths / 10, HAWAII)
        return Object.keys(light).every(
          (key) => (heavy[key] ?? 0) >= (light[key] ?? 0) && (far[key] ?? 0) >= (light[key] ?? 0),
        )
      }),
    )
  })
})

describe('international', () => {
  test('one service, 6 to 21 business days, priced by weight', () => {
    const rates = tableRates(10, { country: 'CA', state: 'ON', zip: 'M5V 2T6' })
    expect(rates).toHaveLength(1)
    expect(rates[0]).toMatchObject({
      serviceName: 'USPS First-Class Package International',
      priceCents: 2175,
      estimate: { minDays: 6, maxDays: 21 },
      standard: false,
    })
    expect(tableRates(7, { country: 'DE', state: '', zip: '10115' })[0]?.priceCents).toBe(1650)
  })
})

describe('free standard shipping from $35.00 after discount', () => {
  const ground = { priceCents: 640, freeEligible: true }
  const priority = { priceCents: 1095, freeEligible: false }
  test.each([
    [3500, 0],
    [5000, 0],
    [3499, 640],
    [0, 640],
  ])('ground at %p cents of goods costs %p', (goods, price) => {
    expect(shippingPriceCents(ground, goods)).toBe(price)
  })
  test('faster services are never free', () => {
    expect(shippingPriceCents(priority, 10_000)).toBe(1095)
  })
})

describe('parcel', () => {
  test('mailer size and packaging weight follow the item count', () => {
    expect(parcelFor(2, 58)).toEqual({ weightOz: 6.6, lengthIn: 7, widthIn: 4.25, heightIn: 1 })
    expect(parcelFor(3, 80)).toEqual({ weightOz: 9.2, lengthIn: 9, widthIn: 5, heightIn: 1 })
    expect(parcelFor(5, 150)).toEqual({ weightOz: 17, lengthIn: 10.5, widthIn: 7.5, heightIn: 1.5 })
    expect(PACKAGING_WEIGHT_OZ.small).toBe(0.8)
  })
})

describe('demo carrier', () => {
  test('issues a USPS-shaped tracking number and writes a readable PDF label', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'labels-'))
    try {
      const carrier = createRateTableShipping({ dataDir: dir })
      const label = await carrier.buyLabel({
        reference: '000042',
        serviceToken: 'usps_priority',
        parcel: parcelFor(2, 58),
        address: {
          name: 'Dana Cole',
          street1: '12 Mill Rd',
          city: 'Dayton',
          state: 'OH',
          zip: '45402',
          country: 'US',
        },
      })
      expect(label.carrier).toBe('USPS')
      expect(label.trackingNumber).toMatch(/^9400\d{18}$/)
      const pdf = readFileSync(fileURLToPath(label.labelUrl), 'latin1')
      expect(pdf.startsWith('%PDF-1.4')).toBe(true)
      expect(pdf).toContain('(Order 000042) Tj')
      expect(pdf).toContain('(Dana Cole) Tj')
      expect(pdf).toContain('USPS Priority Mail')
      expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('buys only the service that was paid for: one it does not offer for the parcel is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'labels-'))
    try {
      const carrier = createRateTableShipping({ dataDir: dir })
      const request = {
        reference: '000043',
        parcel: parcelFor(1, 30),
        address: {
          name: 'Ana Ruiz',
          street1: 'Calle 1',
          city: 'Madrid',
          state: '',
          zip: '28001',
          country: 'ES',
        },
      }
      // Domestic services do not go abroad, and an unknown token is not quietly swapped for the cheapest.
      for (const serviceToken of ['usps_priority', 'no_such_service']) {
        const refused = carrier.buyLabel({ ...request, serviceToken })
        await expect(refused).rejects.toBeInstanceOf(PaidServiceUnavailableError)
        await expect(refused).rejects.toThrow(
          `The demo carrier does not offer ${serviceToken} for this parcel`,
        )
      }
      expect(existsSync(join(dir, 'labels'))).toBe(false)
      const abroad = await carrier.buyLabel({
        ...request,
        serviceToken: 'usps_first_class_package_international_service',
      })
      expect(abroad.trackingNumber).toMatch(/^9400\d{18}$/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('finds the label it already sold for a reference, and only a whole one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'labels-'))
    try {
      const carrier = createRateTableShipping({ dataDir: dir })
      expect(await carrier.findLabel('000044')).toBeNull()
      const request = {
        serviceToken: 'usps_ground_advantage',
        parcel: parcelFor(1, 30),
        address: {
          name: 'Dana Cole',
          street1: '12 Mill Rd',
          city: 'Dayton',
          state: 'OH',
          zip: '45402',
          country: 'US',
        },
      }
      const sold = await carrier.buyLabel({ ...request, reference: '000044' })
      await carrier.buyLabel({ ...request, reference: '0000440' })
      // A label cut off mid-write by a crash is not a label.
      writeFileSync(join(dir, 'labels', 'order-000045-9400000000000000000001.pdf.partial'), '%PDF-1.4')
      expect(await carrier.findLabel('000044')).toEqual(sold)
      expect(await carrier.findLabel('000045')).toBeNull()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('PDF cross-reference offsets point at their objects', () => {
    const pdf = Buffer.from(labelPdf(['Hello (world)', 'Ünïcode'])).toString('latin1')
    const xrefAt = Number(/startxref\n(\d+)/.exec(pdf)?.[1])
    expect(pdf.slice(xrefAt, xrefAt + 4)).toBe('xref')
    const offsets = [...pdf.slice(xrefAt).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]))
    expect(offsets).toHaveLength(5)
    offsets.forEach((offset, index) => {
      expect(pdf.slice(offset, offset + `${index + 1} 0 obj`.length)).toBe(`${index + 1} 0 obj`)
    })
    expect(pdf).toContain('(Hello \\(world\\)) Tj')
    expect(pdf).toContain('(?n?code) Tj')
  })
})
