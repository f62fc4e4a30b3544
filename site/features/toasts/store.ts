import { atom } from 'nanostores'
import { makeToast, type Toast, type ToastOptions, withoutToast, withToast } from './queue'

export type { Toast, ToastOptions, ToastVariant } from './queue'

/** What the toast viewport (rendered once by the layout) shows. */
export const $toasts = atom<Toast[]>([])

let lastId = 0

/**
 * Shows a notification, e.g. `showToast({ title: 'Empty Cart', description: '…', variant: 'error' })`.
 * Returns its id for `dismissToast`. Safe to call before the viewport has hydrated: it shows once it has.
 */
export function showToast(options: ToastOptions): number {
  lastId += 1
  $toasts.set(withToast($toasts.get(), makeToast(lastId, options)))
  return lastId
}

export function dismissToast(id: number): void {
  $toasts.set(withoutToast($toasts.get(), id))
}
