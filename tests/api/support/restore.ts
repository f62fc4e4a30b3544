/**
 * A backup restored over a shop that kept taking orders after the backup: the restored database numbers
 * orders from where the backup stood, so order numbers are used a second time, while what lives outside
 * the database (the carrier's labels and label files, e-mails already delivered) stays.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { backupDatabase } from '../../../db/backup'
import { memoryMailer, orderRow, paidOrder, switchableCarrier } from './orders'
import { createTestApp, type TestApp } from './test-app'

export interface RestoredShop {
  /** The shop as it ran until the restore; its order `lost` is not in the backup. */
  before: TestApp
  /** The same data folder (labels stay) over the restored copy of the database. */
  after: TestApp
  lost: { id: number; trackingNumber: string; messageIds: string[] }
  carrier: ReturnType<typeof switchableCarrier>
  mail: ReturnType<typeof memoryMailer>
  close(): void
}

/** Order 1, a backup, order 2 (labelled, mailed), then the backup restored in place of the database. */
export async function restoredShop(): Promise<RestoredShop> {
  const mailBefore = memoryMailer()
  const before = await createTestApp({}, (base) => ({
    shipping: switchableCarrier(base.shipping).provider,
    mailer: mailBefore,
  }))
  await paidOrder(before, { name: 'Ada Kept', email: 'ada.kept@example.com' })
  await before.runDueJobs()
  const copy = join(before.deps.config.dataDir, 'backups', 'shop-copy.db')
  await backupDatabase(before.deps.config.databaseUrl, copy)

  const lostId = await paidOrder(before, { name: 'Lou Lost', email: 'lou.lost@example.com' })
  await before.runDueJobs()
  const lostRow = await orderRow(before, lostId)
  if (!lostRow?.shippoTrackingNumber) throw new Error('the lost order has no label')

  const mail = memoryMailer()
  let carrier: ReturnType<typeof switchableCarrier> | undefined
  const after = await createTestApp(
    { DATABASE_URL: `file:${copy}`, DATA_DIR: before.deps.config.dataDir },
    (base) => {
      carrier = switchableCarrier(base.shipping)
      return { shipping: carrier.provider, mailer: mail }
    },
  )
  if (!carrier) throw new Error('no carrier')
  return {
    before,
    after,
    lost: {
      id: lostId,
      trackingNumber: lostRow.shippoTrackingNumber,
      messageIds: mailBefore.sent
        .filter((message) => message.to === 'lou.lost@example.com')
        .map((message) => message.messageId ?? ''),
    },
    carrier,
    mail,
    close() {
      after.close()
      before.close()
    },
  }
}

/** The text of every demo label file in the shop's labels folder that names this tracking number. */
export function labelFileText(shop: TestApp, trackingNumber: string): string {
  const dir = join(shop.deps.config.dataDir, 'labels')
  const name = readdirSync(dir).find((file) => file.endsWith(`-${trackingNumber}.pdf`))
  if (!name) throw new Error(`no label file for ${trackingNumber}`)
  return readFileSync(join(dir, name), 'latin1')
}
