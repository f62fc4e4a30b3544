/**
 * Fault drills (tests/drills): with NODE_ENV=test and FAULT_CRASH_AT naming a point, the process kills
 * itself there with SIGKILL, as a power cut or `kill -9` would, so the drill can prove that a restart
 * loses and doubles nothing. Anywhere else this does nothing.
 */
/** A payment's: its event stored, its demo session marked paid, its label bought at the carrier, its checkout's units held. */
export const CRASH_POINTS = ['event-stored', 'session-paid', 'label-bought', 'stock-reserved'] as const
/**
 * A refund's (a staff Refund's or a Cancel's): the provider made it and the shop has not written it down
 * yet; the shop wrote it down and its e-mail has not gone yet.
 */
export const REFUND_CRASH_POINTS = ['refund-made', 'refund-recorded'] as const
export type RefundCrashPoint = (typeof REFUND_CRASH_POINTS)[number]
export type CrashPoint = (typeof CRASH_POINTS)[number] | RefundCrashPoint

const armed = process.env.NODE_ENV === 'test' ? process.env.FAULT_CRASH_AT : undefined

export function crashPoint(point: CrashPoint): void {
  if (armed === point) process.kill(process.pid, 'SIGKILL')
}
