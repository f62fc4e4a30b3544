/**
 * The collector and allocator settings the server runs with (decision 031). JavaScriptCore and mimalloc
 * read them from the environment once, as the process starts, and nothing can change them afterwards; so
 * the entry point, before it loads anything else, starts itself again in place (execve: the same process
 * id, arguments and open files) with whichever of them the environment does not already set. A value an
 * operator sets is kept as it is.
 */

/** Each setting and its value; the reasons and the measurements are in decision 031. */
export const MEMORY_SETTINGS = {
  /**
   * How far the heap may grow after a full collection before the next: 60 % (Bun's default, 200 %, let a
   * server of 15 MB of live objects climb to 60–70 MB between full collections).
   */
  BUN_JSC_heapGrowthMaxIncrease: '0.6',
  /** Pages the allocator no longer uses go back to the system at once, not after 100 ms (the default). */
  MIMALLOC_PURGE_DELAY: '0',
} as const

type Environment = Record<string, string | undefined>

/** The settings this environment leaves unset, with their values; empty when every one is set. */
export function missingMemorySettings(env: Environment): Record<string, string> {
  return Object.fromEntries(Object.entries(MEMORY_SETTINGS).filter(([name]) => env[name] === undefined))
}

/**
 * Starts this process's `command` (its runtime first) again in its place, with the missing settings added
 * to its environment, or returns when none is missing. Returns also where the system refuses (then the
 * server runs with the runtime's defaults, and says so).
 */
export function restartWithMemorySettings(command: string[], warn: (message: string) => void): void {
  const missing = missingMemorySettings(process.env)
  if (Object.keys(missing).length === 0) return
  try {
    if (!process.execve) throw new Error('this runtime has no process.execve')
    process.execve(process.execPath, command, { ...process.env, ...missing })
  } catch (error) {
    warn(
      `Could not restart with the memory settings (${String(error)}); running with the runtime's defaults.`,
    )
  }
}
