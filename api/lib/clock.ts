/** Time comes from here, so tests can move it (quote expiry, sessions, rate-limit windows, job leases). */
export interface Clock {
  now(): Date
  /**
   * Calls `tick` every `ms` until the returned function stops it: the system clock with a timer, a fixed
   * clock as a test moves it on, so the test sees what the ticks do without waiting for them.
   */
  every(ms: number, tick: () => unknown): () => void
}

export const systemClock: Clock = {
  now: () => new Date(),
  every(ms, tick) {
    const timer = setInterval(tick, ms)
    return () => clearInterval(timer)
  },
}

export interface FixedClock extends Clock {
  /** Moves time on by `ms`, running each tick that falls due on the way, at its own time. */
  advance(ms: number): void
  /** Moves time to `date`; on the way forward, as `advance` does. */
  set(date: Date): void
  /**
   * Resolves once every tick run so far has finished (a tick may write to the database); rejects with the
   * first tick that failed, as a failing timer would have surfaced.
   */
  settle(): Promise<void>
}

export function fixedClock(start: Date): FixedClock {
  let current = start.getTime()
  const timers = new Set<{ due: number; ms: number; tick: () => unknown }>()
  let running: Promise<unknown>[] = []

  const nextDue = (until: number) => {
    let next: { due: number; ms: number; tick: () => unknown } | undefined
    for (const timer of timers) if (timer.due <= until && (!next || timer.due < next.due)) next = timer
    return next
  }

  const moveTo = (target: number) => {
    for (let timer = nextDue(target); timer; timer = nextDue(target)) {
      current = timer.due
      timer.due += timer.ms
      // Called now, while the clock reads the tick's own time; what it starts is awaited by settle().
      try {
        running.push(Promise.resolve(timer.tick()))
      } catch (error) {
        running.push(Promise.reject(error))
      }
    }
    current = target
  }

  return {
    now: () => new Date(current),
    every(ms, tick) {
      const timer = { due: current + ms, ms, tick }
      timers.add(timer)
      return () => timers.delete(timer)
    },
    advance: (ms) => moveTo(current + ms),
    set: (date) => {
      if (date.getTime() > current) moveTo(date.getTime())
      else current = date.getTime()
    },
    async settle() {
      const failures: unknown[] = []
      while (running.length > 0) {
        const settling = running
        running = []
        for (const result of await Promise.allSettled(settling)) {
          if (result.status === 'rejected') failures.push(result.reason)
        }
      }
      if (failures.length > 0) throw failures[0]
    },
  }
}
