// The log's writes from a real process (api/lib/log.ts): a turn's lines arrive whole and in order, and the
// lines of the last turn before process.exit are not lost.
import { expect, test } from 'bun:test'
import { join } from 'node:path'

const LOG = join(import.meta.dir, '../../api/lib/log.ts')

async function run(script: string): Promise<{ lines: string[]; code: number }> {
  const child = Bun.spawn([process.execPath, '-e', `import { log } from ${JSON.stringify(LOG)}\n${script}`], {
    stdout: 'pipe',
    stderr: 'inherit',
    env: { ...process.env, LOG_LEVEL: 'info' },
  })
  const text = await new Response(child.stdout).text()
  return { lines: text.split('\n').filter(Boolean), code: await child.exited }
}

test('many lines in one turn arrive whole, in order, however many writes they take', async () => {
  const { lines, code } = await run(
    "for (let i = 0; i < 200; i++) log.info('request', { i, path: '/api/' + 'x'.repeat(300) })",
  )
  expect(code).toBe(0)
  expect(lines.map((line) => (JSON.parse(line) as { i: number }).i)).toEqual([...Array(200).keys()])
})

test('lines logged just before process.exit are written', async () => {
  const { lines, code } = await run(
    "log.error('first'); log.error('the shop did not start'); process.exit(1)",
  )
  expect(code).toBe(1)
  expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual([
    'first',
    'the shop did not start',
  ])
})
