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
  return new Date(guess)
}
