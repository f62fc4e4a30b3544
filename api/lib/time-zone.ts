/**
 * The shop's calendar day. 'Orders today' on the dashboard means today where the shop works, not in UTC
 * and not where the server happens to run (SHOP_TIME_ZONE, an IANA name such as America/Chicago).
 */

/** Whether the runtime knows this IANA time zone name. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name })
    return true
  } catch {
    return false
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    formatters.set(timeZone, format)
  }
  return format
}

/** The wall-clock time in `timeZone` at `instant`, as if that wall time were UTC (epoch ms). */
function wallTime(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {}
  for (const part of formatter(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value)
  }
  return Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  )
}

/**
 * The instant the calendar day containing `now` began in `timeZone`. Offsets change at daylight-saving
 * moves, so the offset is measured at the candidate midnight itself and the guess corrected once.
 */
export function startOfDay(now: Date, timeZone: string): Date {
  const wall = wallTime(now.getTime(), timeZone)
  const localMidnight = wall - (((wall % 86_400_000) + 86_400_000) % 86_400_000)
  let guess = localMidnight - (wallTime(localMidnight, timeZone) - localMidnight)
  guess = localMidnight - (wallTime(guess, timeZone) - guess)
  // Where clocks jump over midnight (America/Santiago in September: 00:00 becomes 01:00) that midnight
  // never happens, and the guess is still the day before: the day begins at the jump.
  const wallAtGuess = wallTime(guess, timeZone)
  if (wallAtGuess < localMidnight) guess += localMidnight - wallAtGuess
  return new Date(guess)
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0')

/** The calendar day in `timeZone` at `instant`: '2026-03-08'. */
export function localDate(instant: Date, timeZone: string): string {
  const wall = new Date(wallTime(instant.getTime(), timeZone))
  return `${pad(wall.getUTCFullYear(), 4)}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}`
}

/**
 * `instant` as ISO 8601 with the wall time and offset of `timeZone`, to the second:
 * '2026-03-08T01:30:00-06:00'. What a person in the shop reads, and still one exact instant.
 */
export function isoInTimeZone(instant: Date, timeZone: string): string {
  const ms = Math.floor(instant.getTime() / 1000) * 1000
  const wall = wallTime(ms, timeZone)
  const offsetMinutes = Math.round((wall - ms) / 60_000)
  const sign = offsetMinutes < 0 ? '-' : '+'
  const offset = `${sign}${pad(Math.floor(Math.abs(offsetMinutes) / 60))}:${pad(Math.abs(offsetMinutes) % 60)}`
  return `${new Date(wall).toISOString().slice(0, 19)}${offset}`
}

/**
 * The instant the calendar day `date` began in `timeZone`. From the day's noon, which exists on every
 * day whatever daylight saving does around midnight (some zones move their clocks at 00:00).
 */
export function startOfLocalDate(date: { year: number; month: number; day: number }, timeZone: string): Date {
  const noonAsUtc = Date.UTC(date.year, date.month - 1, date.day, 12)
  const noon = noonAsUtc - (wallTime(noonAsUtc, timeZone) - noonAsUtc)
  return startOfDay(new Date(noon), timeZone)
}

/** One calendar day in the shop: its date and the instants it starts and ends (23, 24 or 25 hours apart). */
export interface LocalDay {
  date: string
  start: Date
  end: Date
}

/** The `count` days up to and including the one containing `now`, oldest first. */
export function lastDays(now: Date, timeZone: string, count: number): LocalDay[] {
  const days: LocalDay[] = []
  let end = new Date(startOfDay(now, timeZone).getTime() + 36 * 3_600_000)
  end = startOfDay(end, timeZone)
  for (let index = 0; index < count; index++) {
    // The instant before this day's end lies in the day; its midnight is the day's start.
    const start = startOfDay(new Date(end.getTime() - 1), timeZone)
    days.unshift({ date: localDate(start, timeZone), start, end })
    end = start
  }
  return days
}
