/**
 * Fault drills (tests/drills): with NODE_ENV=test and FAULT_CRASH_AT naming a point, the process kills
 * itself there with SIGKILL, as a power cut or `kill -9` would, so the drill can prove that a restart
 * loses and doubles nothing. Anywhere else this does nothing.
 */
export const CRASH_POINTS = ['event-stored', 'session-paid', 'label-bought', 'stock-reserved'] as const
export type CrashPoint = (typeof CRASH_POINTS)[number]

const armed = process.env.NODE_ENV === 'test' ? process.env.FAULT_CRASH_AT : undefined

export function crashPoint(point: CrashPoint): void {
  if (armed === point) process.kill(process.pid, 'SIGKILL')
}
