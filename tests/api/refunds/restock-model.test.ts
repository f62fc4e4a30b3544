// Model-based check of the units refunds and cancels put back on the shelf (docs/decisions/027, 'Restock').
// The app is driven in process through random sequences on one order (one or two counted lines, no
// scents): ship or not, refunds by lines with or without restock (some while the provider cannot be
// reached), the provider failing refunds it had made, refunds again, a cancel. After each step the shelf
// is compared with a physical model of where each unit of the order is:
//   home  in the shop, the order's to ship (unshipped)       cust  with the customer (shipped, not back)
//   shelf on the shelf, free to sell                         off   decided off the shelf (a broken jar, or
//                                                                  kept by the customer: refunded without restock)
// Units carry no identity. A refund covers units of a line; when a refund fails its units become
// 'orphans' (refunded, money not returned). The principle 'a unit refunded again after its refund failed
// is the same unit' is modelled as: a new refund of a line covers that line's orphans first (STRICT).
// Which orphans, when orphans of different kinds wait, is not said: every choice is kept (a set of
// possible states). A LOOSE model lets a refund cover any uncovered units (orphans or not): the widest
// physically consistent reading. The shop must never put more on the shelf than the loose model's most
// (overselling), nor fewer than its least; where the strict model has one answer, the shop must give it.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import fc from 'fast-check'
import { onHand } from '../stock/helpers'
import { payForOrder } from '../support/orders'
import { createRefundShop, json, type RefundShop, refundRows } from './helpers'

setDefaultTimeout(600_000)

const PRODUCTS = [4, 5] as const // Workforce Repair Original Grit, The Brush & Comb Duo: no scents
const SHELF = 20

type Loc = 'home' | 'cust' | 'shelf' | 'off'
interface Unit {
  loc: Loc
  cover: string | null
  orphan: boolean
}
/** One reading of where the order's units are: per line, its units (sorted, so equal states compare equal). */
type State = Unit[][]

interface ModelRefund {
  id: string
  restock: boolean
  parts: { line: number; k: number }[]
  status: string
  made: boolean
}

interface Flags {
  shipped: boolean
  cancelled: boolean
}

const key = (s: State) => JSON.stringify(s)
const unitKey = (u: Unit) => `${u.loc}|${u.cover ?? ''}|${u.orphan ? 1 : 0}`
const norm = (s: State): State =>
  s.map((line) => [...line].sort((a, b) => unitKey(a).localeCompare(unitKey(b))))
const dedupe = (states: State[]) => [...new Map(states.map((s) => [key(norm(s)), norm(s)])).values()]
const clone = (s: State): State => s.map((line) => line.map((u) => ({ ...u })))

/** Every way to pick `k` of `units` (indexes), up to units of the same kind. */
function picks(units: Unit[], candidates: number[], k: number): number[][] {
  const groups = new Map<string, number[]>()
  for (const i of candidates) {
    const u = units[i] as Unit
    const g = `${u.loc}|${u.orphan}`
    groups.set(g, [...(groups.get(g) ?? []), i])
  }
  const lists = [...groups.values()]
  const out: number[][] = []
  const walk = (g: number, left: number, acc: number[]) => {
    if (g === lists.length) {
      if (left === 0) out.push(acc)
      return
    }
    const list = lists[g] as number[]
    for (let n = 0; n <= Math.min(left, list.length); n++)
      walk(g + 1, left - n, [...acc, ...list.slice(0, n)])
  }
  walk(0, k, [])
  return out
}

/** The states after refund `r` is asked: strict covers a line's orphans first; loose any uncovered units. */
function requested(states: State[], r: ModelRefund, strict: boolean): State[] {
  let now = states
  for (const { line, k } of r.parts) {
    const next: State[] = []
    for (const s of now) {
      const units = s[line] as Unit[]
      const free = units.map((u, i) => (u.cover === null ? i : -1)).filter((i) => i >= 0)
      const orphans = free.filter((i) => (units[i] as Unit).orphan)
      const fresh = free.filter((i) => !(units[i] as Unit).orphan)
      let ways: number[][]
      if (!strict) ways = picks(units, free, k)
      else if (orphans.length >= k) ways = picks(units, orphans, k)
      else ways = picks(units, fresh, k - orphans.length).map((w) => [...orphans, ...w])
      for (const way of ways) {
        const t = clone(s)
        for (const i of way) {
          const u = (t[line] as Unit[])[i] as Unit
          u.cover = r.id
          u.orphan = false
          if (!r.restock && (u.loc === 'home' || u.loc === 'cust')) u.loc = 'off'
        }
        next.push(t)
      }
    }
    now = next
  }
  return dedupe(now)
}

function made(states: State[], r: ModelRefund, f: Flags): State[] {
  if (!r.restock || f.cancelled) return states
  return dedupe(
    states.map((s) =>
      s.map((line) => line.map((u) => (u.cover === r.id ? { ...u, loc: 'shelf' as Loc } : u))),
    ),
  )
}

function failed(states: State[], r: ModelRefund, wasMade: boolean, f: Flags): State[] {
  const takeBack = r.restock && wasMade && !f.shipped && !f.cancelled
  return dedupe(
    states.map((s) =>
      s.map((line) =>
        line.map((u) =>
          u.cover === r.id
            ? { cover: null, orphan: true, loc: takeBack && u.loc === 'shelf' ? ('home' as Loc) : u.loc }
            : u,
        ),
      ),
    ),
  )
}

function shipped(states: State[]): State[] {
  return dedupe(
    states.map((s) =>
      s.map((line) => line.map((u) => (u.loc === 'home' ? { ...u, loc: 'cust' as Loc } : u))),
    ),
  )
}

/** A cancel puts back the units at home, and those of restocking refunds not made yet (as if made before it). */
function cancelled(states: State[], refunds: ModelRefund[]): State[] {
  const unmade = new Set(refunds.filter((r) => r.restock && !r.made && counts(r.status)).map((r) => r.id))
  return dedupe(
    states.map((s) =>
      s.map((line) =>
        line.map((u) =>
          u.loc === 'home' || (u.cover && unmade.has(u.cover)) ? { ...u, loc: 'shelf' as Loc } : u,
        ),
      ),
    ),
  )
}

const counts = (status: string) => ['requested', 'pending', 'succeeded'].includes(status)
const shelfOf = (s: State, line: number) => (s[line] as Unit[]).filter((u) => u.loc === 'shelf').length

type Action =
  | { t: 'refund'; parts: { line: number; k: number }[]; restock: boolean; down: boolean }
  | { t: 'fail'; pick: number }
  /** Fails the n-th refund asked in this scenario (for hand-written sequences). */
  | { t: 'failRefund'; n: number }
  | { t: 'ship' }
  | { t: 'cancel' }
  | { t: 'retry' }

export interface Scenario {
  quantities: number[]
  shipFirst: boolean
  actions: Action[]
}

export interface Finding {
  kind: 'oversell' | 'lost' | 'strict'
  step: number
  line: number
  actual: number
  strict: number[]
  loose: number[]
  trace: string[]
}

let r: RefundShop
let runs = 0

beforeAll(async () => {
  r = await createRefundShop()
})
afterAll(() => {
  r.events.held = true
  r.shop.close()
})

const realRefund = () => r.demo.refund

/** Runs one scenario against the shop and the models; returns what differs (first few), and whether ambiguous. */
export async function runScenario(
  sc: Scenario,
): Promise<{ findings: Finding[]; ambiguous: string[]; trace: string[]; shelves: number[] }> {
  runs++
  r.shop.clock.advance(61 * 60_000) // a fresh window for the checkout's rate limits
  const quantities = sc.quantities.filter((q) => q > 0)
  for (const p of PRODUCTS)
    await json(await r.asStaff('PATCH', `/api/products/${p}/stock`, { stock: SHELF }), 200)
  const items = quantities.map((quantity, i) => ({ id: PRODUCTS[i] as number, quantity }))
  const { id } = await payForOrder(r.shop, { items, email: `model${runs}@example.com` })
  await r.shop.runDueJobs() // the label, so the order can ship
  const detail = await json<{ lines: { id: number; productId: number }[] }>(
    await r.asStaff('GET', `/api/orders/${id}`),
    200,
  )
  const lineIds = quantities.map((_, i) => detail.lines.find((l) => l.productId === PRODUCTS[i])?.id ?? 0)

  const flags: Flags = { shipped: false, cancelled: false }
  const refunds: ModelRefund[] = []
  const start: State = quantities.map((q) =>
    Array.from({ length: q }, () => ({ loc: 'home' as Loc, cover: null, orphan: false })),
  )
  let strictStates: State[] = [start]
  let looseStates: State[] = [start]
  const trace: string[] = [`order ${quantities.map((q, i) => `line${i}×${q}`).join(' ')}`]
  const findings: Finding[] = []
  const ambiguous: string[] = []
  const original = realRefund()

  /** Brings the models up to the refunds' statuses in the database (made, failed), oldest first. */
  async function sync() {
    const rows = await refundRows(r.shop, id)
    const order = (id: string) => {
      const i = refunds.findIndex((x) => x.id === id)
      return i < 0 ? Number.MAX_SAFE_INTEGER : i
    }
    for (const row of [...rows].sort((a, b) => order(a.id) - order(b.id))) {
      let m = refunds.find((x) => x.id === row.id)
      if (!m) {
        // The cancel's refund of what is left: no lines.
        m = { id: row.id, restock: false, parts: [], status: 'requested', made: false }
        refunds.push(m)
      }
      if (m.status === row.status) continue
      const wasMade = m.made
      if (!m.made && (row.status === 'succeeded' || row.status === 'pending')) {
        m.made = true
        strictStates = made(strictStates, m, flags)
        looseStates = made(looseStates, m, flags)
      }
      if (row.status === 'failed' || row.status === 'canceled') {
        strictStates = failed(strictStates, m, wasMade, flags)
        looseStates = failed(looseStates, m, wasMade, flags)
      }
      m.status = row.status
    }
  }

  async function check(step: number) {
    for (let line = 0; line < quantities.length; line++) {
      const q = quantities[line] as number
      const actual = ((await onHand(r.shop, PRODUCTS[line] as number, '')) ?? Number.NaN) - (SHELF - q)
      const strict = [...new Set(strictStates.map((s) => shelfOf(s, line)))].sort()
      const loose = [...new Set(looseStates.map((s) => shelfOf(s, line)))].sort()
      if (strict.length > 1)
        ambiguous.push(`step ${step} line${line}: strict ${strict.join('/')}, shop ${actual}`)
      const base = { step, line, actual, strict, loose, trace: [...trace] }
      if (actual > Math.max(...loose)) findings.push({ kind: 'oversell', ...base })
      else if (actual < Math.min(...loose)) findings.push({ kind: 'lost', ...base })
      else if (strict.length === 1 && actual !== strict[0]) findings.push({ kind: 'strict', ...base })
    }
  }

  if (sc.shipFirst) sc = { ...sc, actions: [{ t: 'ship' }, ...sc.actions] }
  try {
    await check(0)
    let step = 0
    for (const a of sc.actions) {
      step++
      if (a.t === 'refund') {
        const left = (line: number) =>
          (quantities[line] as number) -
          refunds
            .filter((x) => counts(x.status))
            .flatMap((x) => x.parts)
            .filter((p) => p.line === line)
            .reduce((n, p) => n + p.k, 0)
        const merged = new Map<number, number>()
        for (const p of a.parts) {
          if (p.line >= quantities.length) continue
          merged.set(p.line, Math.min(left(p.line), (merged.get(p.line) ?? 0) + p.k))
        }
        const parts = [...merged].filter(([, k]) => k > 0).map(([line, k]) => ({ line, k }))
        if (parts.length === 0) continue
        if (a.down) {
          r.demo.refund = async () => {
            throw new Error('socket hang up')
          }
        }
        const res = await r.asStaff('POST', `/api/orders/${id}/refunds`, {
          lines: parts.map((p) => ({ lineId: lineIds[p.line], quantity: p.k })),
          restock: a.restock,
        })
        r.demo.refund = original
        const body = (await res.json()) as { refund?: { id: string } }
        if (res.status !== 201 || !body.refund) {
          trace.push(
            `refund ${JSON.stringify(parts)} ${a.restock ? 'restock' : 'no-restock'}: ${res.status} (skipped)`,
          )
          continue
        }
        const m: ModelRefund = {
          id: body.refund.id,
          restock: a.restock,
          parts,
          status: 'requested',
          made: false,
        }
        refunds.push(m)
        strictStates = requested(strictStates, m, true)
        looseStates = requested(looseStates, m, false)
        trace.push(
          `refund#${refunds.indexOf(m)} ${parts.map((p) => `line${p.line}:${p.k}`).join(',')} ${a.restock ? 'restock' : 'no-restock'}${a.down ? ' (provider down)' : ''}`,
        )
      } else if (a.t === 'fail' || a.t === 'failRefund') {
        const rows = (await refundRows(r.shop, id))
          .filter((row) => row.status === 'succeeded' && row.providerRefundId)
          .sort((x, y) => refunds.findIndex((m) => m.id === x.id) - refunds.findIndex((m) => m.id === y.id))
        const row =
          a.t === 'fail'
            ? rows[a.pick % Math.max(1, rows.length)]
            : rows.find((x) => x.id === refunds[a.n]?.id)
        if (!row) continue
        await r.demo.failRefund(row.providerRefundId ?? '', 'expired_or_canceled_card')
        const m = refunds.find((x) => x.id === row.id)
        trace.push(`fail refund#${m ? refunds.indexOf(m) : `(cancel's)`}`)
      } else if (a.t === 'ship') {
        if (flags.shipped || flags.cancelled || refunds.some((x) => x.status === 'requested')) continue
        const res = await r.asStaff('POST', `/api/orders/${id}/ship`)
        await res.arrayBuffer()
        if (res.status !== 200) {
          trace.push(`ship: ${res.status} (skipped)`)
          continue
        }
        flags.shipped = true
        strictStates = shipped(strictStates)
        looseStates = shipped(looseStates)
        trace.push('ship')
      } else if (a.t === 'cancel') {
        if (flags.shipped || flags.cancelled) continue
        const res = await r.asStaff('POST', `/api/orders/${id}/cancel`, {})
        await res.arrayBuffer()
        if (res.status !== 200) {
          trace.push(`cancel: ${res.status} (skipped)`)
          continue
        }
        // The cancel moves the units first; its own refund is then made (synced below).
        strictStates = cancelled(strictStates, refunds)
        looseStates = cancelled(looseStates, refunds)
        flags.cancelled = true
        trace.push('cancel')
      } else if (a.t === 'retry') {
        if (!refunds.some((x) => x.status === 'requested')) continue
        r.shop.clock.advance(10 * 60_000)
        await r.shop.runDueJobs()
        trace.push('provider back: asked refunds made')
      }
      await r.events.deliver()
      await r.events.deliver()
      await sync()
      trace[trace.length - 1] +=
        `  → shelf ${(await Promise.all(quantities.map((_, i) => onHand(r.shop, PRODUCTS[i] as number, '')))).map((n, i) => (n ?? 0) - (SHELF - (quantities[i] as number))).join(',')}`
      await check(step)
    }
    // Whatever is still asked at the provider is made in the end, and checked once more.
    if (refunds.some((x) => x.status === 'requested')) {
      r.shop.clock.advance(10 * 60_000)
      await r.shop.runDueJobs()
      await r.events.deliver()
      await sync()
      trace.push('(end) provider back: asked refunds made')
      await check(step + 1)
    }
  } finally {
    r.demo.refund = original
  }
  const shelves: number[] = []
  for (let line = 0; line < quantities.length; line++)
    shelves.push(
      ((await onHand(r.shop, PRODUCTS[line] as number, '')) ?? Number.NaN) -
        (SHELF - (quantities[line] as number)),
    )
  return { findings, ambiguous, trace, shelves }
}

const line = fc.integer({ min: 0, max: 1 })
const actionArb: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      t: fc.constant('refund' as const),
      parts: fc.array(
        fc.record({
          line,
          k: fc.oneof(
            { weight: 3, arbitrary: fc.constant(1) },
            { weight: 2, arbitrary: fc.integer({ min: 1, max: 4 }) },
          ),
        }),
        { minLength: 1, maxLength: 2 },
      ),
      restock: fc.boolean(),
      down: fc.integer({ min: 0, max: 9 }).map((n) => n < 3),
    }),
  },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('fail' as const), pick: fc.nat(5) }) },
  { weight: 1, arbitrary: fc.constant({ t: 'ship' as const }) },
  { weight: 2, arbitrary: fc.constant({ t: 'cancel' as const }) },
  { weight: 1, arbitrary: fc.constant({ t: 'retry' as const }) },
)
const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  quantities: fc.tuple(
    fc.integer({ min: 1, max: 4 }),
    fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3 })),
  ),
  shipFirst: fc.boolean(),
  actions: fc.array(actionArb, { minLength: 1, maxLength: 9 }),
})

const RUNS = Number(process.env.MODEL_RUNS ?? 200)
// By default only what no reading allows fails the property (oversell, lost); MODEL_CHECK=strict: also a
// shelf other than the strict reading's one answer ('a unit refunded again after a failure is the same unit').
const BOUNDS_ONLY = process.env.MODEL_CHECK !== 'strict'
// MODEL_SURVEY=1: never fails; prints the shortest sequence of each kind of difference found.
const SURVEY = process.env.MODEL_SURVEY === '1'
const survey = new Map<string, Finding>()

describe('units a refund or a cancel puts back, against a physical model', () => {
  test('random sequences', async () => {
    const seen: string[] = []
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (sc) => {
        const { findings, ambiguous } = await runScenario(sc)
        for (const a of ambiguous) seen.push(a)
        const real = findings.filter((f) => !BOUNDS_ONLY || f.kind !== 'strict')
        if (SURVEY) {
          for (const f of real) {
            const last = (f.trace[f.trace.length - 1] ?? '').split(' ')[0] ?? ''
            const cat = `${f.kind} after ${last}${f.trace.some((t) => t === 'ship  → shelf 0' || t.startsWith('ship ')) ? ' (shipped)' : ''}`
            const was = survey.get(cat)
            if (!was || was.trace.length > f.trace.length) survey.set(cat, f)
          }
          return
        }
        if (real.length > 0) {
          const f = real[0] as Finding
          throw new Error(
            `${f.kind} on line${f.line} after step ${f.step}: shop ${f.actual}, strict ${f.strict.join('/')}, physically possible ${f.loose.join('/')}\n  ${f.trace.join('\n  ')}`,
          )
        }
      }),
      {
        numRuns: RUNS,
        seed: process.env.MODEL_SEED ? Number(process.env.MODEL_SEED) : undefined,
        endOnFailure: process.env.MODEL_SHRINK !== '1',
      },
    )
    for (const [cat, f] of survey)
      console.log(
        `${cat}: line${f.line} shop ${f.actual}, strict ${f.strict.join('/')}, possible ${f.loose.join('/')}\n  ${f.trace.join('\n  ')}`,
      )
    if (process.env.MODEL_VERBOSE)
      console.log(`ambiguous steps seen: ${seen.length}\n${seen.slice(0, 20).join('\n')}`)
    expect(true).toBe(true)
  })
})

const R = (parts: [number, number][], restock: boolean, down = false): Action => ({
  t: 'refund',
  parts: parts.map(([line, k]) => ({ line, k })),
  restock,
  down,
})
const FAIL = (n: number): Action => ({ t: 'failRefund', n })
const SHIP: Action = { t: 'ship' }
const CANCEL: Action = { t: 'cancel' }
const RETRY: Action = { t: 'retry' }

/**
 * Hand-written sequences: [name, quantities, actions, units of each line on the shelf at the end (what came
 * back, worked out by hand)]. Line 0 is product 4, line 1 product 5.
 */
export const HAND: [string, number[], Action[], number[]][] = [
  // A restocking refund made BEFORE a refund without restock that then fails: nothing was refunded again after
  // a failure, so the broken jar is not the restocked one and the cancel must keep it off.
  [
    'restock 1, no-restock 1, the no-restock one fails, cancel',
    [2, 0],
    [R([[0, 1]], true), R([[0, 1]], false), FAIL(1), CANCEL],
    [1],
  ],
  // Two different jars refunded without restock (the second while the first stood); the second's money fails.
  [
    'two jars refunded without restock, the second fails, cancel',
    [2, 0],
    [R([[0, 1]], false), R([[0, 1]], false), FAIL(1), CANCEL],
    [0],
  ],
  [
    'restock asked (provider down), no-restock 1 fails, cancel',
    [2, 0],
    [R([[0, 1]], true, true), R([[0, 1]], false), FAIL(1), CANCEL, RETRY],
    [1],
  ],
  [
    'two lines: restock, then both without restock, that one fails, cancel',
    [2, 3],
    [
      R(
        [
          [0, 1],
          [1, 2],
        ],
        true,
      ),
      R(
        [
          [0, 1],
          [1, 1],
        ],
        false,
      ),
      FAIL(1),
      CANCEL,
    ],
    [1, 2],
  ],
  // The same jar (refunded again after its refund failed) fails twice: one jar kept off, not two.
  [
    'no-restock 1 fails, refunded again without restock, fails again, cancel',
    [3, 0],
    [R([[0, 1]], false), FAIL(0), R([[0, 1]], false), FAIL(1), CANCEL],
    [2],
  ],
  // Shipped: the second unit's refund was asked while the first unit's stood; the first then fails. Both
  // units came back: the second's refund, made after the failure, must still put its unit back.
  [
    'shipped: restock 1, restock 1 asked (provider down), the first fails, provider back',
    [2, 0],
    [SHIP, R([[0, 1]], true), R([[0, 1]], true, true), FAIL(0), RETRY],
    [2],
  ],
  // Shipped: the returned unit's refund fails; it is refunded again without restock (it is on the shelf);
  // then the customer returns the other unit. Under 'the same unit' both are back; see the report.
  [
    'shipped: restock 1 fails, refunded again without restock, then the other unit returned',
    [2, 0],
    [SHIP, R([[0, 1]], true), FAIL(0), R([[0, 1]], false), R([[0, 1]], true)],
    [2],
  ],
  [
    'shipped: restock 1, restock 1, both fail, refunded again 1, 1, 1',
    [3, 0],
    [
      SHIP,
      R([[0, 1]], true),
      R([[0, 1]], true),
      FAIL(0),
      FAIL(1),
      R([[0, 1]], true),
      R([[0, 1]], true),
      R([[0, 1]], true),
    ],
    [3],
  ],
  [
    'two lines at once with restock, fails, refunded again mixed, cancel',
    [2, 2],
    [
      R(
        [
          [0, 1],
          [1, 1],
        ],
        true,
      ),
      FAIL(0),
      R([[0, 1]], false),
      R([[1, 1]], true),
      CANCEL,
    ],
    [1, 2],
  ],
  [
    'cancel after mixed refunds',
    [4, 0],
    [R([[0, 1]], true), R([[0, 1]], false), R([[0, 1]], true), FAIL(0), CANCEL],
    [3],
  ],
  [
    'restock made, shipped, fails, refunded again, other unit returned',
    [2, 0],
    [R([[0, 1]], true), SHIP, FAIL(0), R([[0, 1]], true), R([[0, 1]], true)],
    [2],
  ],
  [
    'restock fails (taken back), shipped, refunded again with restock',
    [2, 0],
    [R([[0, 1]], true), FAIL(0), SHIP, R([[0, 1]], true)],
    [1],
  ],
  [
    'no-restock fails, restock asked while provider down, cancel, provider back',
    [3, 0],
    [R([[0, 1]], false), FAIL(0), R([[0, 1]], true, true), CANCEL, RETRY],
    [3],
  ],
  [
    'cancel, its refund fails, refund by lines with restock',
    [2, 0],
    [CANCEL, FAIL(0), R([[0, 2]], true)],
    [2],
  ],
]

describe('hand-written sequences', () => {
  for (const [name, quantities, actions, expected] of HAND) {
    test(name, async () => {
      const { findings, ambiguous, trace, shelves } = await runScenario({
        quantities,
        shipFirst: false,
        actions,
      })
      if (process.env.MODEL_VERBOSE)
        console.log(
          `${name}\n  ${trace.join('\n  ')}${ambiguous.length ? `\n  ambiguous: ${ambiguous.join('; ')}` : ''}`,
        )
      // The hand-worked answer, and the strict model's, agree; the shop gives it.
      expect({
        shelves,
        findings: findings.map(
          (f) =>
            `${f.kind} line${f.line} step ${f.step}: shop ${f.actual}, strict ${f.strict.join('/')}, possible ${f.loose.join('/')}`,
        ),
      }).toEqual({ shelves: expected, findings: [] })
    })
  }
})
