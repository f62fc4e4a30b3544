/**
 * A gate on `owner[method]`, to put another request in the gap a call leaves: calls wait for `release()`
 * (with `onlyFirst`, the first call only; with `after`, once it has run, before it answers); `entered`
 * settles once a held call has begun. `restore()` puts the method back.
 */
export function holdCalls<T extends object>(
  owner: T,
  method: keyof T,
  options: { onlyFirst?: boolean; after?: boolean } = {},
) {
  const slot = owner as Record<keyof T, unknown>
  const original = slot[method] as (...args: unknown[]) => Promise<unknown>
  const call = (...args: unknown[]) => original.apply(owner, args)
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  let begun: () => void = () => {}
  const entered = new Promise<void>((resolve) => {
    begun = resolve
  })
  let calls = 0
  slot[method] = async (...args: unknown[]) => {
    calls += 1
    if (options.onlyFirst && calls > 1) return call(...args)
    if (options.after) {
      const result = await call(...args)
      begun()
      await held
      return result
    }
    begun()
    await held
    return call(...args)
  }
  return {
    entered,
    release,
    restore: () => {
      slot[method] = original
    },
  }
}
