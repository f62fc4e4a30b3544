/**
 * The visit flags in localStorage. Any of them present means the visitor has been here before and the
 * welcome popup stays away; tests and returning visitors set them to suppress it.
 */
export const WELCOME_FLAGS = ['hasVisited', 'welcomePopupShown'] as const

/** docs/product.md#every-page: the popup shrinks to a pill after 10 s. */
export const WELCOME_MINIMISE_AFTER_MS = 10_000

type FlagStorage = Pick<Storage, 'getItem' | 'setItem'>

export function isFirstVisit(storage: FlagStorage): boolean {
  return WELCOME_FLAGS.every((key) => storage.getItem(key) === null)
}

export function markVisited(storage: FlagStorage): void {
  for (const key of WELCOME_FLAGS) storage.setItem(key, 'true')
}

/**
 * Where the first visit's welcome waits for another page: on top of paying it would sit over the buttons;
 * the pages of signed-in customers and staff would greet someone who has an account with 'Create
 * account'; and on the account forms (a first visit from an e-mailed link lands on one) it would cover the
 * form it invites to, or the one the visitor came to use.
 */
const NO_WELCOME_PATHS = [
  '/cart',
  '/shipping',
  '/checkout',
  '/success',
  '/profile',
  '/account',
  '/dashboard',
  '/signup',
  '/login',
  '/forgot-password',
  '/reset-password',
  '/verify-email',
  '/google-sign-in',
]

export function offersWelcome(pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/'
  return !NO_WELCOME_PATHS.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))
}
