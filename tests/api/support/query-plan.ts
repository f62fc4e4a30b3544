// The query plan SQLite chose for a statement the shop sent: for tests that hold a hot path to its index.
import Libsql from 'libsql'
import type { TestApp } from './test-app'

/**
 * Runs `action`, takes the first statement it sent whose SQL starts with `sqlStart`, and returns SQLite's
 * plan for it, one line per step.
 */
export async function planOfSent(
  shop: TestApp,
  sqlStart: string,
  action: () => Promise<unknown>,
): Promise<string[]> {
  const client = shop.deps.db.$client
  const sent: { sql: string; args: unknown[] }[] = []
  const execute = client.execute.bind(client)
  client.execute = ((statement: string | { sql: string; args?: unknown }) => {
    if (typeof statement !== 'string') sent.push({ sql: statement.sql, args: [...(statement.args as [])] })
    return execute(statement as never)
  }) as typeof client.execute
  try {
    await action()
  } finally {
    client.execute = execute
  }
  const statement = sent.find((each) => each.sql.startsWith(sqlStart))
  if (!statement) throw new Error(`no statement starting with ${sqlStart} was sent`)
  // Asked on a connection of its own: the client runs an EXPLAIN of an UPDATE as a write and leaves it
  // unfinished, which would fail the writer's commit. Through libSQL, as the shop's own connections are:
  // another SQLite library in this process would not see their locks, and closing its connection would
  // drop them (POSIX locks belong to the process).
  const reader = new Libsql(shop.deps.config.databaseUrl.slice('file:'.length))
  try {
    const rows = reader.prepare(`explain query plan ${statement.sql}`).all(statement.args) as {
      detail: string
    }[]
    return rows.map((row) => row.detail)
  } finally {
    reader.close()
  }
}
