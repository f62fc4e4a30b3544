/** docs/product.md#every-page: one toast on screen, 5 s each, dismissed by a 50 px swipe to the right. */
export const TOAST_LIMIT = 1
export const TOAST_DURATION_MS = 5000
export const SWIPE_DISMISS_PX = 50

export type ToastVariant = 'default' | 'error'

export interface ToastOptions {
  title: string
  description?: string
  /** 'default' is green (success or information), 'error' is red and announced assertively. */
  variant?: ToastVariant
  /** Milliseconds on screen; defaults to 5000. */
  duration?: number
}

export interface Toast {
  id: number
  title: string
  description?: string
  variant: ToastVariant
  duration: number
}

export function makeToast(id: number, options: ToastOptions): Toast {
  const duration = options.duration
  return {
    id,
    title: options.title,
    description: options.description,
    variant: options.variant ?? 'default',
    duration:
      duration !== undefined && Number.isFinite(duration) && duration > 0 ? duration : TOAST_DURATION_MS,
  }
}

/** The newest toast replaces the oldest once the limit is reached. */
export function withToast(toasts: readonly Toast[], toast: Toast, limit = TOAST_LIMIT): Toast[] {
  return [toast, ...toasts].slice(0, Math.max(1, limit))
}

export function withoutToast(toasts: readonly Toast[], id: number): Toast[] {
  return toasts.filter((toast) => toast.id !== id)
}

/** Only a rightward swipe dismisses; a drag left or a short drag springs back. */
export function isDismissSwipe(deltaX: number): boolean {
  return deltaX >= SWIPE_DISMISS_PX
}
