import { afterEach, describe, expect, test } from 'bun:test'
import { lifecycle, quietFor } from '../../api/lib/lifecycle'

afterEach(() => {
  lifecycle.lastRequestAt = 0
})

describe('closing at a quiet moment', () => {
  test('resolves once no request has come for the quiet time', async () => {
    lifecycle.lastRequestAt = performance.now()
    const started = performance.now()
    await quietFor(100, 2000)
    expect(performance.now() - started).toBeGreaterThanOrEqual(95)
    expect(performance.now() - started).toBeLessThan(1000)
  })

  test('a request arriving meanwhile starts the quiet time again', async () => {
    const started = performance.now()
    let lastArrival = started
    const arrivals = setInterval(() => {
      if (performance.now() - started >= 300) return
      lastArrival = performance.now()
      lifecycle.lastRequestAt = lastArrival
    }, 20)
    await quietFor(100, 2000)
    clearInterval(arrivals)
    // Requests kept coming for most of 300 ms (timers run late on a busy machine, so the last one may
    // come a little before), and the quiet time counted from the last of them, not from the start.
    expect(lastArrival - started).toBeGreaterThanOrEqual(200)
    expect(performance.now() - lastArrival).toBeGreaterThanOrEqual(100)
  })

  test('a pause of the process starts it again too: connections may have queued unseen', async () => {
    const started = performance.now()
    // The process is held up for 300 ms (a long synchronous step) with no request seen meanwhile.
    setTimeout(() => Bun.sleepSync(300), 10)
    await quietFor(100, 2000)
    expect(performance.now() - started).toBeGreaterThanOrEqual(400)
  })

  test('clients that never stop sending are cut off after the longest wait', async () => {
    const arrivals = setInterval(() => {
      lifecycle.lastRequestAt = performance.now()
    }, 10)
    const started = performance.now()
    await quietFor(100, 400)
    clearInterval(arrivals)
    expect(performance.now() - started).toBeGreaterThanOrEqual(395)
    expect(performance.now() - started).toBeLessThan(1000)
  })
})
