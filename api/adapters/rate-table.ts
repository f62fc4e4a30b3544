/**
 * The built-in shipping stand-in: USPS-like prices from a table by weight and destination, and a demo
 * carrier that issues tracking numbers and writes a small PDF label under the data folder. Prices are in
 * the range of USPS retail rates so totals in development look like real ones.
 */
import { randomBytes, randomInt } from 'node:crypto'
import { link, readdir, readFile, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { type Clock, systemClock } from '../lib/clock'
import { labelsDirFor } from '../lib/data-folders'
import { writeWhole } from '../lib/whole-file'
import {
  type CarrierRate,
  type DeliveryEstimate,
  type LabelRequest,
  type LabelToVoid,
  type LabelVoid,
  PaidServiceUnavailableError,
  type Parcel,
  type PurchasedLabel,
  type ShippingAddress,
  type ShippingProvider,
  UnknownLabelError,
} from './types'

/** Destination zones measured from the shop's workshop in the Midwest (ZIPs starting with 4). */
export type Zone = 'local' | 'regional' | 'national' | 'remote'

const ORIGIN_ZIP_DIGIT = 4
/** States far from any ground network: priced as the farthest zone. */
const REMOTE_STATES = new Set(['AK', 'HI'])

/** Domestic services stop at 70 lb, USPS's own limit. */
export const MAX_PARCEL_OZ = 70 * 16

export function zoneFor(address: Pick<ShippingAddress, 'state' | 'zip'>): Zone {
  if (REMOTE_STATES.has(address.state)) return 'remote'
  const digit = Number(address.zip.charAt(0))
  const distance = Number.isInteger(digit) ? Math.abs(digit - ORIGIN_ZIP_DIGIT) : 9
  if (distance === 0) return 'local'
  if (distance === 1) return 'regional'
  return 'national'
}

interface ServiceTable {
  token: string
  name: string
  estimate: DeliveryEstimate
  standard: boolean
  /** [up to this many ounces, price in cents], lightest first, up to 1 lb. */
  ounceSteps: readonly (readonly [number, number])[]
  /** Above 1 lb: this much per started pound beyond the first. */
  perExtraPoundCents: number
  zoneCents: Readonly<Record<Zone, number>>
}

export const DOMESTIC_SERVICES: readonly ServiceTable[] = [
  {
    token: 'usps_ground_advantage',
    name: 'USPS Ground Advantage',
    estimate: { minDays: 3, maxDays: 5 },
    standard: true,
    ounceSteps: [
      [4, 475],
      [8, 545],
      [12, 625],
      [16, 750],
    ],
    perExtraPoundCents: 150,
    zoneCents: { local: 0, regional: 40, national: 95, remote: 350 },
  },
  {
    token: 'usps_priority',
    name: 'USPS Priority Mail',
    estimate: { minDays: 1, maxDays: 3 },
    standard: false,
    ounceSteps: [[16, 935]],
    perExtraPoundCents: 190,
    zoneCents: { local: 0, regional: 75, national: 160, remote: 600 },
  },
  {
    token: 'usps_priority_express',
    name: 'USPS Priority Mail Express',
    estimate: { minDays: 1, maxDays: 2 },
    standard: false,
    ounceSteps: [
      [8, 2875],
      [16, 3150],
    ],
    perExtraPoundCents: 425,
    zoneCents: { local: 0, regional: 150, national: 325, remote: 900 },
  },
]

export const INTERNATIONAL_SERVICE: ServiceTable = {
  token: 'usps_first_class_package_international_service',
  name: 'USPS First-Class Package International',
  estimate: { minDays: 6, maxDays: 21 },
  standard: false,
  ounceSteps: [
    [8, 1650],
    [16, 2175],
  ],
  perExtraPoundCents: 650,
  zoneCents: { local: 0, regional: 0, national: 0, remote: 0 },
}

function priceFor(service: ServiceTable, weightOz: number, zone: Zone): number {
  const steps = service.ounceSteps
  const step = steps.find(([upTo]) => weightOz <= upTo)
  const onePound = steps[steps.length - 1]?.[1] ?? 0
  const base = step ? step[1] : onePound + Math.ceil((weightOz - 16) / 16) * service.perExtraPoundCents
  return base + service.zoneCents[zone]
}

/** The table's answer for one parcel: three domestic services in the US, one international service elsewhere. */
export function tableRates(
  weightOz: number,
  address: Pick<ShippingAddress, 'country' | 'state' | 'zip'>,
): CarrierRate[] {
  if (!(weightOz > 0) || weightOz > MAX_PARCEL_OZ) return []
  const domestic = address.country === 'US'
  const services = domestic ? DOMESTIC_SERVICES : [INTERNATIONAL_SERVICE]
  const zone: Zone = domestic ? zoneFor(address) : 'national'
  return services.map((service) => ({
    providerRateId: service.token,
    carrier: 'USPS',
    serviceName: service.name,
    serviceToken: service.token,
    priceCents: priceFor(service, weightOz, zone),
    estimate: { ...service.estimate },
    standard: service.standard,
  }))
}

/**
 * The built-in carrier's tracking link: USPS's public tracking page, as its numbers are USPS-shaped (USPS
 * answers that it does not know them, which is true).
 */
export function demoTrackingUrl(trackingNumber: string): string {
  return `https://tools.usps.com/go/TrackConfirmAction?tLabels=${encodeURIComponent(trackingNumber)}`
}

/** A USPS-shaped 22-digit tracking number (9400 prefix); clearly fake to anyone who tries it. */
function demoTrackingNumber(): string {
  let digits = '9400'
  while (digits.length < 22) digits += String(randomInt(10))
  return digits
}

function pdfText(value: string): string {
  // Labels are ASCII; anything else becomes '?', and PDF string delimiters are escaped.
  return value.replace(/[^\x20-\x7e]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`)
}

/** A one-page 4 × 6 in PDF with the label's text lines; enough to print and to open in any viewer. */
export function labelPdf(lines: readonly string[]): Uint8Array {
  const content = [
    'BT',
    '/F1 11 Tf',
    '14 TL',
    '20 410 Td',
    ...lines.map((line, index) => `${index === 0 ? '' : 'T* '}(${pdfText(line)}) Tj`),
    'ET',
  ].join('\n')
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 288 432] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]
  let pdf = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'))
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = Buffer.byteLength(pdf, 'latin1')
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(pdf, 'latin1')
}

/** Label files are named order-000042-3f9c…-9400….pdf: reference first, so a retry finds the label by it. */
function labelFilePrefix(reference: string): string {
  return `order-${reference}-`
}

/** A label's void record sits beside its PDF: order-000042-9400….pdf.void. */
const VOID_SUFFIX = '.void'

/** What the demo carrier writes down when it voids a label. */
interface VoidRecord {
  id: string
  labelId: string
  voidedAt: string
}

async function labelFiles(labelsDir: string): Promise<string[]> {
  try {
    return await readdir(labelsDir)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
}

export function createRateTableShipping(options: { dataDir: string; clock?: Clock }): ShippingProvider {
  const labelsDir = labelsDirFor(options.dataDir)
  const clock = options.clock ?? systemClock

  /**
   * Keeps the void record, once: written whole under a name of its own, then hard-linked to the record's
   * name, which fails if it exists. Of any number of voids, one writes the record; the others read it.
   */
  async function recordVoid(
    labelFile: string,
    labelId: string,
  ): Promise<{ record: VoidRecord; created: boolean }> {
    const path = join(labelsDir, `${labelFile}${VOID_SUFFIX}`)
    const record: VoidRecord = {
      id: `void_${randomBytes(12).toString('hex')}`,
      labelId,
      voidedAt: clock.now().toISOString(),
    }
    const partial = `${path}.${randomBytes(6).toString('hex')}.partial`
    await writeFile(partial, JSON.stringify(record))
    try {
      await link(partial, path)
      return { record, created: true }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      return { record: JSON.parse(await readFile(path, 'utf8')) as VoidRecord, created: false }
    } finally {
      await unlink(partial)
    }
  }

  return {
    name: 'rate-table',
    async quoteRates(parcel: Parcel, address: ShippingAddress) {
      return tableRates(parcel.weightOz, address)
    },
    async buyLabel(request: LabelRequest): Promise<PurchasedLabel> {
      const { address, parcel } = request
      // Like a real carrier: only a service the table offers for this parcel and destination.
      const service = tableRates(parcel.weightOz, address).find(
        (rate) => rate.serviceToken === request.serviceToken,
      )
      if (!service) {
        throw new PaidServiceUnavailableError(
          `The demo carrier does not offer ${request.serviceToken} for this parcel`,
        )
      }
      const trackingNumber = demoTrackingNumber()
      const pdf = labelPdf([
        'DEMO LABEL - NOT VALID FOR POSTAGE',
        service.serviceName,
        `Order ${request.reference}`,
        '',
        'SHIP TO:',
        address.name,
        address.street1,
        ...(address.street2 ? [address.street2] : []),
        `${address.city}, ${address.state} ${address.zip}`,
        address.country,
        '',
        `Weight: ${parcel.weightOz.toFixed(1)} oz`,
        `Package: ${parcel.lengthIn} x ${parcel.widthIn} x ${parcel.heightIn} in`,
        `Tracking: ${trackingNumber}`,
      ])
      const path = join(labelsDir, `${labelFilePrefix(request.reference)}${trackingNumber}.pdf`)
      // Written whole (api/lib/whole-file.ts): findLabel never takes a half-written file for a bought label.
      await writeWhole(path, pdf)
      return {
        carrier: 'USPS',
        trackingNumber,
        labelUrl: pathToFileURL(path).href,
        labelId: trackingNumber,
        trackingUrl: demoTrackingUrl(trackingNumber),
      }
    },

    /**
     * The demo carrier's records are its label files: one named for the reference, and not voided, is a
     * label bought.
     */
    async findLabel(reference: string): Promise<PurchasedLabel | null> {
      const names = await labelFiles(labelsDir)
      const prefix = labelFilePrefix(reference)
      const name = names.find(
        (file) =>
          file.startsWith(prefix) && file.endsWith('.pdf') && !names.includes(`${file}${VOID_SUFFIX}`),
      )
      if (!name) return null
      const trackingNumber = name.slice(prefix.length, -'.pdf'.length)
      return {
        carrier: 'USPS',
        trackingNumber,
        labelUrl: pathToFileURL(join(labelsDir, name)).href,
        labelId: trackingNumber,
        trackingUrl: demoTrackingUrl(trackingNumber),
      }
    },

    /**
     * Each label file bought under the reference written again without its ship-to lines (the name, street
     * and city a deleted account's order no longer keeps); its file name, tracking number and void record
     * stay, so a void or a lookup still finds it.
     */
    async forgetAddress(reference: string): Promise<void> {
      const prefix = labelFilePrefix(reference)
      for (const name of await labelFiles(labelsDir)) {
        if (!name.startsWith(prefix) || !name.endsWith('.pdf')) continue
        const trackingNumber = name.slice(prefix.length, -'.pdf'.length)
        await writeWhole(
          join(labelsDir, name),
          labelPdf([
            'DEMO LABEL - NOT VALID FOR POSTAGE',
            `Order ${reference}`,
            '',
            'SHIP TO: removed (the customer deleted their account)',
            '',
            `Tracking: ${trackingNumber}`,
          ]),
        )
      }
    },

    /**
     * Voids at once, as USPS does for an unused demo label. The label's file is looked up among the
     * carrier's own file names (never built from the request into a path), so only a label it sold can
     * be voided; the PDF stays, and the void record beside it outlives a restart.
     */
    async voidLabel(label: LabelToVoid): Promise<LabelVoid> {
      const labelId = label.labelId ?? label.trackingNumber
      const wanted = `${labelFilePrefix(label.reference)}${label.trackingNumber}.pdf`
      const names = await labelFiles(labelsDir)
      if (labelId !== label.trackingNumber || !names.includes(wanted)) {
        throw new UnknownLabelError(
          `The demo carrier has no label ${label.trackingNumber} for order ${label.reference}: nothing to void`,
        )
      }
      const { record, created } = await recordVoid(wanted, label.trackingNumber)
      return { id: record.id, labelId: record.labelId, status: 'success', alreadyVoided: !created }
    },
  }
}
