/**
 * The job runner's pace beside the requests (api/modules/jobs/runner.ts). Imports nothing: the bench's
 * report names its gap.
 */

/**
 * While requests keep arriving, jobs are claimed at most one per REQUESTS_FIRST_GAP_MS across all the
 * runner's workers (40 a second, about a tenth of a core at a few ms each), so a rush of orders is served
 * first and its e-mails and labels follow; without requests they run back to back. Never paused outright:
 * a shop that is never quiet still sends its e-mails.
 */
export const REQUESTS_FIRST_GAP_MS = 25

/**
 * The pace of claims: `busy()` says whether requests are arriving. Each call resolves when the next job may
 * be claimed, and takes that turn.
 */
export function requestsFirst(busy: () => boolean, gapMs = REQUESTS_FIRST_GAP_MS): () => Promise<void> {
  let nextClaimAt = 0
  return async () => {
    for (;;) {
      const wait = nextClaimAt - performance.now()
      if (wait <= 0 || !busy()) break
      await Bun.sleep(wait)
    }
    nextClaimAt = performance.now() + gapMs
  }
}
