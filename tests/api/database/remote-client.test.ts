// A DATABASE_URL that names a libSQL server (several machines sharing one database, README.md) is opened
// with libSQL's remote client, which db/client.ts imports only then: a `file:` server never loads it.
// Here the "server" is a listener that records what arrives and answers every request with an error.
import { afterAll, expect, test } from 'bun:test'
import { openDatabase } from '../../../db/client'

const arrived: string[] = []
const listener = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch(request) {
    arrived.push(`${request.method} ${new URL(request.url).pathname} ${request.headers.get('authorization')}`)
    return new Response('no database here', { status: 500 })
  },
})
afterAll(() => listener.stop(true))

test('a libSQL server URL is opened with the remote client, its token sent, and its failure reported', async () => {
  await expect(openDatabase(`http://127.0.0.1:${listener.port}`, 'the-token')).rejects.toThrow()
  // Hrana over HTTP, the protocol a libSQL server speaks: its first request is a pipeline of statements.
  expect(arrived[0]).toBe('POST /v2/pipeline Bearer the-token')
})
