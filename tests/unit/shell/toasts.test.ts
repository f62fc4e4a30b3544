import { beforeEach, describe, expect, test } from 'bun:test'
import {
  isDismissSwipe,
  makeToast,
  SWIPE_DISMISS_PX,
  TOAST_DURATION_MS,
  withoutToast,
  withToast,
} from '../../../site/features/toasts/queue'
import { $toasts, dismissToast, showToast } from '../../../site/features/toasts/store'

describe('toast queue', () => {
  test('defaults: green (default variant), 5 s', () => {
    expect(makeToast(1, { title: 'Saved' })).toEqual({
      id: 1,
      title: 'Saved',
      description: undefined,
      variant: 'default',
      duration: TOAST_DURATION_MS,
    })
    expect(TOAST_DURATION_MS).toBe(5000)
  })

  test('keeps a valid custom duration and ignores a nonsense one', () => {
    expect(makeToast(1, { title: 't', duration: 3000 }).duration).toBe(3000)
    expect(makeToast(1, { title: 't', duration: 0 }).duration).toBe(5000)
    expect(makeToast(1, { title: 't', duration: Number.NaN }).duration).toBe(5000)
  })

  test('holds one toast: the newest replaces the one on screen', () => {
    const first = makeToast(1, { title: 'first' })
    const second = makeToast(2, { title: 'second' })
    expect(withToast(withToast([], first), second)).toEqual([second])
  })

  test('removes by id only', () => {
    const toast = makeToast(7, { title: 'x' })
    expect(withoutToast([toast], 8)).toEqual([toast])
    expect(withoutToast([toast], 7)).toEqual([])
  })

  test('a swipe dismisses from 50 px to the right, never to the left', () => {
    expect(SWIPE_DISMISS_PX).toBe(50)
    expect(isDismissSwipe(49)).toBe(false)
    expect(isDismissSwipe(50)).toBe(true)
    expect(isDismissSwipe(-200)).toBe(false)
  })
})

describe('showToast', () => {
  beforeEach(() => $toasts.set([]))

  test('puts the toast in the store and returns its id', () => {
    const id = showToast({ title: 'Discount Applied!', description: '10% off', variant: 'default' })
    expect($toasts.get()).toEqual([
      { id, title: 'Discount Applied!', description: '10% off', variant: 'default', duration: 5000 },
    ])
  })

  test('ids are unique and the latest toast wins', () => {
    const a = showToast({ title: 'a' })
    const b = showToast({ title: 'b', variant: 'error' })
    expect(a).not.toBe(b)
    expect($toasts.get().map((toast) => toast.title)).toEqual(['b'])
  })

  test('dismissToast removes it', () => {
    const id = showToast({ title: 'bye' })
    dismissToast(id)
    expect($toasts.get()).toEqual([])
  })
})
