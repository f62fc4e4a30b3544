/**
 * Pages with a "Sign in with Google" button are built twice: as they are, and under WITHOUT_GOOGLE_DIR
 * without the button (site/pages/without-google/). The server answers with the second kind when Google
 * sign-in is not configured, so no page links to a sign-in that cannot work; the copies are never served
 * at their own address (docs/decisions/017-google-buttons-only-when-configured.md).
 */
export const WITHOUT_GOOGLE_DIR = '/without-google'

/** The pages built in both kinds, by their path without the leading slash. */
export const PAGES_WITH_GOOGLE = ['login', 'signup', 'google-sign-in'] as const

/** The path a built file of the without-Google kind stands in for, or null for any other file. */
export function pathWithoutGoogleStandsFor(builtPath: string): string | null {
  return builtPath.startsWith(`${WITHOUT_GOOGLE_DIR}/`) ? builtPath.slice(WITHOUT_GOOGLE_DIR.length) : null
}
