// Fault drill: the disk fills up under the shop. The database (with its WAL) and the data folder (labels,
// the outbox) each sit on a real 8 MB filesystem (tmpfs, mounted for the drill: run it as root), and a
// file written until the kernel says ENOSPC takes every free byte, as a log or a backup left to grow
// would. First the data folder fills: labels and e-mails cannot be written, wait and are tried again,
// nothing half-written is left, and /api/ready says the disk is full. Then the database's disk fills:
// checkouts and payment webhooks that cannot be stored answer 503 with Retry-After, never 500. Once room
// is made /api/ready answers 200 again, and the provider's redelivery and the queued jobs finish every
// order.
import { afterAll, expect, test } from 'bun:test'
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, rmSync, statSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { recordDrill } from './support/counts'
import {
  cleanUpShops,
  createShop,
  deliver,
  paidSessions,
  post,
  redeliverAll,
  type Shop,
  shopCounts,
  waitFor,
} from './support/shop'
import { doubledIn, onceEach, outboxMails, tallyShop } from './support/tally'

const PAYMENTS = 20
const DISK = '8m'

const mounted: string[] = []
let running: Shop | null = null
afterAll(async () => {
  // The server goes first: a filesystem in use cannot be unmounted.
  running?.process?.kill('SIGKILL')
  await running?.process?.exited
  running?.db().close()
  // Lazily: this process's database client may hold a file open until its statements are collected.
  for (const dir of mounted.reverse()) {
    const unmount = Bun.spawnSync(['umount', '--lazy', dir])
    if (unmount.exitCode !== 0) console.error(`umount ${dir}: ${unmount.stderr.toString()}`)
  }
  cleanUpShops()
})

/** Mounts a small tmpfs on `dir`: a real filesystem that fills up. */
function mountSmallDisk(dir: string): void {
  const mount = Bun.spawnSync(['mount', '-t', 'tmpfs', '-o', `size=${DISK}`, 'tmpfs', dir])
  if (mount.exitCode !== 0) throw new Error(`mount failed: ${mount.stderr.toString()}`)
  mounted.push(dir)
}

/** Writes a file until the kernel refuses (ENOSPC): every free byte of the filesystem is taken. */
function fillDisk(path: string): number {
  const fd = openSync(path, 'w')
  const block = Buffer.alloc(64 * 1024)
  let written = 0
  try {
    for (;;) written += writeSync(fd, block)
  } catch (error) {
    expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC')
  } finally {
    closeSync(fd)
  }
  // What is left is less than a block: fill that too, a byte at a time.
  const tail = openSync(path, 'a')
  try {
    for (;;) written += writeSync(tail, Buffer.alloc(1))
  } catch {
    // full
  } finally {
    closeSync(tail)
  }
  return written
}

/**
 * Files a full disk left half-written: partial labels or messages, messages without their copy. A job
 * writing at the moment of the look has a .partial in flight that it renames or removes at once, so the
 * folder is read twice, a second apart, and only what stayed, the same file, counts as left behind.
 */
async function halfWritten(dir: string): Promise<string[]> {
  const first = new Map(leftovers(dir).map((file) => [file, inode(dir, file)]))
  await Bun.sleep(1000)
  return leftovers(dir).filter((file) => first.has(file) && first.get(file) === inode(dir, file))
}

/** The file's inode, or null once it is gone: a .partial written again under the same name is another file. */
function inode(dir: string, file: string): number | null {
  const path = join(dir, file.replace(/ without its \.json$/, ''))
  return existsSync(path) ? statSync(path).ino : null
}

function leftovers(dir: string): string[] {
  const left: string[] = []
  for (const folder of ['labels', 'outbox']) {
    const path = join(dir, folder)
    if (!existsSync(path)) continue
    const names = readdirSync(path)
    left.push(...names.filter((name) => name.endsWith('.partial')).map((name) => `${folder}/${name}`))
    if (folder === 'outbox') {
      for (const name of names.filter((file) => file.endsWith('.eml'))) {
        if (!names.includes(name.replace(/\.eml$/, '.json'))) left.push(`outbox/${name} without its .json`)
      }
    }
  }
  return left
}

/**
 * Mounting needs root. Anyone else runs this same file again inside a user and mount namespace of their
 * own (`unshare -Urm`), where they are root and the mounts are theirs alone.
 */
const asRoot = process.getuid?.() === 0

test('a full disk: writes answer 503 with Retry-After, /api/ready says so, nothing is half-written, all recovers', async () => {
  if (!asRoot) {
    const child = Bun.spawnSync(
      ['unshare', '--user', '--map-root-user', '--mount', process.execPath, 'test', import.meta.path],
      { stdout: 'inherit', stderr: 'inherit' },
    )
    expect(child.exitCode).toBe(0)
    return
  }
  const shop = createShop('disk-full', { JOB_RETRY_SECONDS: '1', EVENT_LEASE_SECONDS: '5' })
  // The database on one small disk, the data folder (labels, outbox) on another.
  const files = join(shop.dir, 'files')
  running = shop
  mountSmallDisk(shop.dir)
  mkdirSync(files)
  mountSmallDisk(files)
  await shop.start({ DATA_DIR: files })
  const sessions = await paidSessions(shop, PAYMENTS, 'full')
  const rates = (await (
    await post(shop.base, '/api/shipping/rates', {
      address: {
        name: 'Lee Ames',
        street1: '4 Oak St',
        city: 'Dayton',
        state: 'OH',
        zip: '45402',
        country: 'US',
      },
      items: [{ id: 2, quantity: 1, name: 'Beard balm', weight: '2.0' }],
      subtotal: '18.00',
    })
  ).json()) as { rates: { id: string }[] }
  const checkout = (email: string) =>
    post(shop.base, '/api/create-checkout-session', {
      line_items: [{ product_id: 2, quantity: 1 }],
      customer_email: email,
      shipping_address: {
        name: 'Lee Ames',
        street1: '4 Oak St',
        city: 'Dayton',
        state: 'OH',
        zip: '45402',
        country: 'US',
      },
      shipping_rate: { id: rates.rates[0]?.id ?? 'no rate' },
    })
  // The data folder fills first. Half the payments make orders (the database has room); their labels and
  // e-mails cannot be written.
  const filesFiller = join(files, 'filler.bin')
  fillDisk(filesFiller)
  const early = sessions.slice(0, PAYMENTS / 2)
  for (const session of early) expect(await deliver(shop.base, session.payload)).toBe(200)
  const jobsWaitedForRoom = () =>
    shop.output.filter(
      (entry) => entry.includes('"msg":"job failed"') && /ENOSPC|no space|disk is full/i.test(entry),
    ).length
  const jobsFailed = await waitFor(async () => jobsWaitedForRoom() >= 4, 15_000)
  const filesReady = await fetch(`${shop.base}/api/ready`)
  const filesFullAnswer = { status: filesReady.status, body: await filesReady.json() }
  const leftWhileFilesFull = await halfWritten(files)

  // Then the database's disk fills too.
  const filler = join(shop.dir, 'filler.bin')
  const filled = fillDisk(filler)

  // Shoppers keep checking out until one no longer fits (the WAL may hold a few more): that one is told
  // to come back, and so is every one after it.
  const answers: { status: number; retryAfter: string | null }[] = []
  for (let i = 0; i < 300; i++) {
    const res = await checkout(`full.checkout.${i}@example.com`)
    await res.arrayBuffer()
    answers.push({ status: res.status, retryAfter: res.headers.get('retry-after') })
    if (res.status !== 200 && answers.filter((a) => a.status !== 200).length >= 5) break
  }
  const refusedCheckouts = answers.filter((a) => a.status !== 200)
  // The other half of the payments arrive: each is stored and made an order, or told to come back.
  const late: { status: number | string; retryAfter: string | null }[] = []
  for (const session of sessions.slice(PAYMENTS / 2)) {
    let retryAfter: string | null = null
    const status = await deliver(shop.base, session.payload, (res) => {
      retryAfter = res.headers.get('retry-after')
    })
    late.push({ status, retryAfter })
  }
  const ready = await fetch(`${shop.base}/api/ready`)
  const readyAnswer = {
    status: ready.status,
    retryAfter: ready.headers.get('retry-after'),
    body: await ready.json(),
  }
  // The jobs run meanwhile (every second): labels and e-mails that cannot be written wait.
  await Bun.sleep(3000)
  const leftWhileFull = await halfWritten(files)
  const stillNotReady = (await fetch(`${shop.base}/api/ready`)).status

  // Someone makes room on both.
  rmSync(filler)
  rmSync(filesFiller)
  const readyAgain = await waitFor(async () => (await fetch(`${shop.base}/api/ready`)).status === 200, 10_000)
  const redelivery = await redeliverAll(
    shop.base,
    sessions.map((session) => session.payload),
  )
  const retried = await Promise.all(
    refusedCheckouts.map(async (_, i) => (await checkout(`full.again.${i}@example.com`)).status),
  )
  // Jobs tried while the disk was full wait out their back-off (up to about a minute) before the next try.
  const done = await waitFor(async () => (await shopCounts(shop)).unfinishedJobs === 0, 90_000)
  const counts = await shopCounts(shop)
  const emails = readdirSync(join(files, 'outbox')).filter((name) => name.endsWith('.eml')).length
  const leftAfter = await halfWritten(files)
  const labelFiles = readdirSync(join(files, 'labels')).filter((name) => name.endsWith('.pdf')).length
  const lateRefused = late.filter((a) => a.status !== 200)
  const jobsWaited = jobsWaitedForRoom()
  // A second charge, e-mail or label for one payment, from the provider's, outbox's and carrier's records.
  const tally = await tallyShop(shop.db(), files, sessions, outboxMails(files))
  const doubled = doubledIn(tally)
  const line = `drill disk-full: data folder's ${DISK} filesystem filled: ${jobsWaited} label and e-mail jobs failed for want of room and were tried again, /api/ready ${filesFullAnswer.status}, ${leftWhileFilesFull.length} half-written files; database's ${DISK} filesystem filled (${Math.round(filled / 1024)} KiB by the filler): ${answers.length} checkouts (${answers.length - refusedCheckouts.length} fitted, ${refusedCheckouts.filter((a) => a.status === 503 && Number(a.retryAfter) > 0).length} of ${refusedCheckouts.length} refused with 503 and Retry-After); ${late.length} payment webhooks while full (${lateRefused.filter((a) => a.status === 503 && Number(a.retryAfter) > 0).length} of ${lateRefused.length} refused with 503 and Retry-After); /api/ready ${readyAnswer.status}; 200 again once room was made: ${readyAgain}; half-written files ${leftWhileFull.length} while full, ${leftAfter.length} after; after redelivery ${PAYMENTS} payments, ${counts.orders} orders, ${emails} e-mails, ${labelFiles} labels, lost ${PAYMENTS - Math.min(counts.orders, counts.labelled, emails)}, doubled ${doubled}`
  console.log(line)
  recordDrill('disk-full', line)

  expect(jobsFailed).toBe(true)
  expect(filesFullAnswer).toEqual({
    status: 503,
    body: { error: 'The disk is full: the shop cannot save anything.', status: 'unavailable' },
  })
  expect(leftWhileFilesFull).toEqual([])
  expect(refusedCheckouts.length).toBeGreaterThan(0)
  for (const answer of [...refusedCheckouts, ...lateRefused]) {
    expect(answer.status).toBe(503)
    expect(Number(answer.retryAfter)).toBeGreaterThan(0)
  }
  expect(readyAnswer).toMatchObject({
    status: 503,
    body: { error: 'The disk is full: the shop cannot save anything.' },
  })
  expect(Number(readyAnswer.retryAfter)).toBeGreaterThan(0)
  expect(stillNotReady).toBe(503)
  expect(leftWhileFull).toEqual([])
  expect(readyAgain).toBe(true)
  expect(redelivery.undelivered).toBe(0)
  expect(retried.every((status) => status === 200)).toBe(true)
  expect(done).toBe(true)
  expect(leftAfter).toEqual([])
  expect(counts).toMatchObject({
    orders: PAYMENTS,
    doubledOrders: 0,
    labelled: PAYMENTS,
  })
  expect(labelFiles).toBe(PAYMENTS)
  expect(emails).toBe(PAYMENTS)
  expect(doubled).toBe(0)
  expect(onceEach(tally)).toBe(PAYMENTS)
}, 240_000)
