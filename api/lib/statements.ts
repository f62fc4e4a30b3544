import type { ResultSet } from '@libsql/client'
import { fillPlaceholders, is, Param, Placeholder, type SQL, sql } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import type { Database } from '../../db/client'

/**
 * One statement of a transaction, built but not run. Each module builds the statements for its own tables
 * (the order's rows, the session's completion, the discount's use, a job) and one caller runs them
 * together with `commitTogether`: one libSQL batch, which is one transaction.
 *
 * A batch cannot hand a value from one statement to the next, so a statement that needs an earlier one's
 * result (the new order's id) reads it with a subquery, and a statement that should run only if the one
 * just before it changed a row asks SQLite's changes() right after it.
 */
export type Statement = BatchItem<'sqlite'>

/**
 * Values for placeholders (`sql.placeholder(name)`) the statements of one transaction share: SQL that
 * names a row the transaction makes (the new order, by its session and payment event) is the same text for
 * every order, so the statements that use it can be built once (`builtOnce`); its values are given here,
 * once for the whole transaction.
 */
export type SharedValues = Record<string, unknown>

/**
 * Runs `statements`, then `last`, as one transaction: all of them or none. Answers what `last` returns,
 * typically a SELECT reading back what the statements made. `shared` fills the placeholders left in any of
 * them; one left unfilled is an error, not a NULL.
 */
export async function commitTogether<Last extends Statement>(
  db: Database,
  statements: readonly Statement[],
  last: Last,
  shared?: SharedValues,
): Promise<Awaited<Last>> {
  const all = [...statements, last].map((statement) => filledIn(statement, shared ?? {}))
  const results = await db.batch(all as unknown as [Statement, ...Statement[]])
  return results[results.length - 1] as Awaited<Last>
}

/** Runs `statements` as one transaction, for a step that reads nothing back. */
export async function runTogether(
  db: Database,
  statements: readonly Statement[],
  shared?: SharedValues,
): Promise<void> {
  const [first, ...rest] = statements.map((statement) => filledIn(statement, shared ?? {}))
  if (first) await db.batch([first, ...rest])
}

/** What drizzle's batch asks of each statement it is given (LibSQLSession.batch). */
interface BatchQuery {
  getQuery(): { sql: string; params: unknown[] }
  mapResult(response: unknown, isFromBatch?: boolean): unknown
}

/** An argument of a statement built once that waits for the transaction's shared values. */
interface Pending {
  index: number
  slot: Slot
}

/** What a statement built for a batch still waits for, kept on it under this key. */
const PENDING = Symbol('pending placeholders')

/** A statement for a batch whose SQL and arguments are known, but for `pending` (tests/api/database/built-once.test.ts). */
function batchStatement(
  sql: string,
  params: unknown[],
  read: BatchQuery['mapResult'],
  pending: readonly Pending[] = [],
): Statement {
  const query: BatchQuery = { getQuery: () => ({ sql, params }), mapResult: read }
  return {
    _prepare: () => query,
    [PENDING]: pending,
    // A query builder runs when awaited; this one cannot (it knows no database), so awaiting it is a
    // mistake that must not pass for a write done.
    // biome-ignore lint/suspicious/noThenProperty: refuses to be awaited, on purpose
    then: () => {
      throw new Error('a statement built for a batch runs in one (runTogether, commitTogether), not by await')
    },
  } as unknown as Statement
}

/** `statement` with the placeholders `shared` names filled in; every other placeholder must be filled already. */
function filledIn(statement: Statement, shared: SharedValues): Statement {
  const pending = (statement as unknown as { [PENDING]?: readonly Pending[] })[PENDING]
  // A statement built once knows where its placeholders are: only those are filled, not every argument
  // looked at again, and one with none left goes as it is.
  if (pending?.length === 0) return statement
  const query = (statement as unknown as { _prepare(): BatchQuery })._prepare()
  const { sql, params } = query.getQuery()
  if (pending) {
    const filled = [...params]
    for (const { index, slot } of pending) filled[index] = fillSlot(slot, shared)
    return batchStatement(sql, filled, query.mapResult.bind(query))
  }
  return batchStatement(sql, fillPlaceholders(params, shared), query.mapResult.bind(query))
}

/** One argument of a statement built once: a value, or the placeholder it stands for. */
interface Slot {
  /** The placeholder's name, or null for a value built in. */
  name: string | null
  param: unknown
  /** The value as its column stores it (a Date as milliseconds), as drizzle's fillPlaceholders does. */
  encode: (value: unknown) => unknown
}

const asIs = (value: unknown) => value

function slotOf(param: unknown): Slot {
  if (is(param, Placeholder)) return { name: param.name, param, encode: asIs }
  if (is(param, Param) && is(param.value, Placeholder)) {
    const { encoder } = param
    return { name: param.value.name, param, encode: (value) => encoder.mapToDriverValue(value) }
  }
  return { name: null, param, encode: asIs }
}

/** The argument for `slot` from `values`, or the error drizzle gives for a value left out. */
function fillSlot(slot: Slot, values: Record<string, unknown>): unknown {
  if (slot.name === null) return slot.param
  if (!(slot.name in values)) throw new Error(`No value for placeholder "${slot.name}" was provided`)
  return slot.encode(values[slot.name])
}

/**
 * A statement drizzle has built, its values left as placeholders: a query builder's `.prepare()`, or a
 * `db.run(sql)` statement, which answers for itself.
 */
interface BuiltStatement {
  getQuery(): { sql: string; params: unknown[] }
  mapResult(response: unknown, isFromBatch?: boolean): unknown
  /** Query builders' prepared statements only. */
  run?(values: Record<string, unknown>): Promise<ResultSet>
}

/**
 * A statement whose SQL drizzle builds once. Building is most of what drizzle costs per statement (a
 * 25-column INSERT about 26 µs, on every call) and the busy paths send the same statements with new values,
 * so `build` makes the statement with `sql.placeholder(name)` where each value goes, and each use fills
 * them in. Only for statements whose SQL never changes with their values: one whose text depends on them
 * (a list of lines, an optional condition) is built as usual. scripts/bench/findings.md has the numbers.
 */
export function builtOnce<Values extends Record<string, unknown>, Shared extends readonly SQL[] = []>(
  build: (...shared: Shared) => { prepare(): unknown } | BuiltStatement,
) {
  let built: { statement: BuiltStatement; sql: string; slots: Slot[]; shared: Shared } | undefined
  const ready = (shared: Shared) => {
    if (!built) {
      const made = build(...shared)
      const statement = ('prepare' in made ? made.prepare() : made) as BuiltStatement
      // Asked once: a `db.run` statement builds its SQL again each time it is asked.
      const { sql, params } = statement.getQuery()
      built = { statement, sql, slots: params.map(slotOf), shared }
    }
    // SQL given to the build must be the same every time (the same object), or the statement built
    // first would say something else than this call asks for.
    if (shared.some((fragment, index) => fragment !== built?.shared[index])) {
      throw new Error('a statement built once was given other SQL than it was built with')
    }
    return built
  }
  return {
    /**
     * The statement with these values, for a batch (`runTogether`, `commitTogether`, `db.batch`). `shared`:
     * SQL whose placeholders the transaction fills (`SharedValues`), the same objects on every call.
     */
    with(values: Values, ...shared: Shared): Statement {
      const { statement, sql, slots } = ready(shared)
      const params: unknown[] = []
      const pending: Pending[] = []
      for (const [index, slot] of slots.entries()) {
        if (slot.name === null) params.push(slot.param)
        else if (slot.name in values) params.push(fillSlot(slot, values))
        else {
          params.push(slot.param)
          pending.push({ index, slot })
        }
      }
      return batchStatement(sql, params, statement.mapResult.bind(statement), pending)
    },
    /** Runs the statement alone with these values (a query builder's; a `db.run` one goes in a batch). */
    run(values: Values, ...shared: Shared): Promise<ResultSet> {
      const { statement } = ready(shared)
      if (!statement.run) throw new Error('a db.run statement built once runs in a batch')
      return statement.run(values)
    },
  }
}

/**
 * `{ name: sql.placeholder(name) }` for each name: the values of an INSERT built once, one placeholder per
 * column. With `suffix`, each placeholder is named `${name}${suffix}`: one row of several in one INSERT.
 */
export function placeholders<Name extends string>(
  names: readonly Name[],
  suffix = '',
): Record<Name, Placeholder<string>> {
  return Object.fromEntries(names.map((name) => [name, sql.placeholder(`${name}${suffix}`)])) as Record<
    Name,
    Placeholder<string>
  >
}

/**
 * `names`, checked to hold every key of `Row`: the columns of an INSERT built once from rows made
 * elsewhere, where a column missing from the list would be dropped without a word. Used as
 * `everyColumn<Row>()(['a', 'b'] as const)`.
 */
export function everyColumn<Row>() {
  return <const Names extends readonly (keyof Row & string)[]>(
    names: Names & (Exclude<keyof Row, Names[number]> extends never ? unknown : never),
  ): Names => names
}

/**
 * `make(fragment)`, made once for each SQL object and kept while it lives: what is built for the SQL a
 * transaction names its rows with (every paid order's is the same objects) is built once, while code that
 * gives SQL of its own each time still gets what it asks for.
 */
export function perSql<Made>(make: (fragment: SQL) => Made): (fragment: SQL) => Made {
  const made = new WeakMap<SQL, Made>()
  return (fragment) => {
    let kept = made.get(fragment)
    if (kept === undefined) {
      kept = make(fragment)
      made.set(fragment, kept)
    }
    return kept
  }
}

/** `perSql` for a pair of SQL objects. */
export function perSqlPair<Made>(make: (first: SQL, second: SQL) => Made): (first: SQL, second: SQL) => Made {
  const byFirst = perSql((first) => perSql((second) => make(first, second)))
  return (first, second) => byFirst(first)(second)
}
