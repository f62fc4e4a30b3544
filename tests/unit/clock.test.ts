import { describe, expect, test } from 'bun:test'
import { fixedClock } from '../../api/lib/clock'

const START = new Date('2026-03-02T15:00:00Z')
const seconds = (clock: { now(): Date }) => (clock.now().getTime() - START.getTime()) / 1000

describe('fixedClock', () => {
  test('stands still until moved', () => {
    const clock = fixedClock(START)
    expect(clock.now()).toEqual(START)
    clock.advance(1500)
    expect(seconds(clock)).toBe(1.5)
    clock.set(new Date('2026-03-02T14:00:00Z'))
    expect(seconds(clock)).toBe(-3600)
  })

  test('runs each tick that falls due while it is moved, reading the tick’s own time', () => {
    const clock = fixedClock(START)
    const fast: number[] = []
    const slow: number[] = []
    clock.every(1000, () => fast.push(seconds(clock)))
    clock.every(2500, () => slow.push(seconds(clock)))
    clock.advance(999)
    expect(fast).toEqual([])
    clock.advance(4001)
    expect(fast).toEqual([1, 2, 3, 4, 5])
    expect(slow).toEqual([2.5, 5])
    expect(seconds(clock)).toBe(5)
    clock.set(new Date(START.getTime() + 6000))
    expect(fast).toEqual([1, 2, 3, 4, 5, 6])
  })

  test('a stopped tick runs no more', () => {
    const clock = fixedClock(START)
    let ticks = 0
    const stop = clock.every(1000, () => {
      ticks += 1
    })
    clock.advance(2000)
    stop()
    clock.advance(5000)
    expect(ticks).toBe(2)
  })

  test('settle waits for what the ticks started, and fails as a failing tick would', async () => {
    const clock = fixedClock(START)
    const written: number[] = []
    clock.every(1000, async () => {
      await Bun.sleep(1)
      written.push(seconds(clock))
    })
    clock.advance(2000)
    expect(written).toEqual([])
    await clock.settle()
    expect(written).toHaveLength(2)

    clock.every(500, () => {
      throw new Error('the renewal failed')
    })
    clock.advance(500)
    await expect(clock.settle()).rejects.toThrow('the renewal failed')
  })
})
