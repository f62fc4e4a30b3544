import { type PointerEvent, useEffect, useRef } from 'react'
import { CloseIcon } from '../../components/shell/icons'
import { useHydratedStore } from '../../components/shell/use-hydrated-store'
import { isDismissSwipe, type Toast } from './queue'
import { $toasts, dismissToast } from './store'

/**
 * The one notification region of the page. F8 moves focus to it. Announcements go through two live
 * regions that exist from the start (a region added together with its text is often not read out).
 */
export default function ToastViewport() {
  const toasts = useHydratedStore($toasts, [])
  const regionRef = useRef<HTMLElement>(null)
  const latest = toasts[0]
  const announcement = latest ? [latest.title, latest.description].filter(Boolean).join('. ') : ''

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'F8') return
      event.preventDefault()
      regionRef.current?.focus()
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [])

  return (
    <section
      ref={regionRef}
      className="toast-region"
      aria-label="Notification"
      aria-keyshortcuts="F8"
      tabIndex={-1}
    >
      <ol className="toast-list">
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} />
        ))}
      </ol>
      <div className="sr-only" role="status" aria-live="polite" aria-atomic="true">
        {latest?.variant === 'default' ? announcement : ''}
      </div>
      <div className="sr-only" role="alert" aria-atomic="true">
        {latest?.variant === 'error' ? announcement : ''}
      </div>
    </section>
  )
}

function ToastItem({ toast }: { toast: Toast }) {
  const itemRef = useRef<HTMLLIElement>(null)
  const swipe = useRef<{ pointerId: number; startX: number; deltaX: number } | null>(null)
  const timer = useRef({ handle: 0, startedAt: 0, remaining: toast.duration })

  useEffect(() => {
    const state = timer.current
    const start = () => {
      window.clearTimeout(state.handle)
      state.startedAt = Date.now()
      state.handle = window.setTimeout(() => dismissToast(toast.id), state.remaining)
    }
    // Hovering, focusing or leaving the window pauses the countdown, so nobody loses a message mid-read.
    const pause = () => {
      window.clearTimeout(state.handle)
      state.remaining = Math.max(0, state.remaining - (Date.now() - state.startedAt))
    }
    const item = itemRef.current
    start()
    item?.addEventListener('pointerenter', pause)
    item?.addEventListener('pointerleave', start)
    item?.addEventListener('focusin', pause)
    item?.addEventListener('focusout', start)
    window.addEventListener('blur', pause)
    window.addEventListener('focus', start)
    return () => {
      window.clearTimeout(state.handle)
      item?.removeEventListener('pointerenter', pause)
      item?.removeEventListener('pointerleave', start)
      item?.removeEventListener('focusin', pause)
      item?.removeEventListener('focusout', start)
      window.removeEventListener('blur', pause)
      window.removeEventListener('focus', start)
    }
  }, [toast.id])

  function onPointerDown(event: PointerEvent<HTMLLIElement>) {
    if ((event.target as HTMLElement).closest('button')) return
    swipe.current = { pointerId: event.pointerId, startX: event.clientX, deltaX: 0 }
    event.currentTarget.setPointerCapture(event.pointerId)
  }

  function onPointerMove(event: PointerEvent<HTMLLIElement>) {
    const current = swipe.current
    if (!current || current.pointerId !== event.pointerId) return
    current.deltaX = Math.max(0, event.clientX - current.startX)
    event.currentTarget.style.transform = `translateX(${current.deltaX}px)`
  }

  function onPointerEnd(event: PointerEvent<HTMLLIElement>) {
    const current = swipe.current
    if (!current || current.pointerId !== event.pointerId) return
    swipe.current = null
    if (isDismissSwipe(current.deltaX)) dismissToast(toast.id)
    else event.currentTarget.style.transform = ''
  }

  return (
    <li
      ref={itemRef}
      className="toast"
      data-variant={toast.variant}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
    >
      <div className="toast-text">
        <p className="toast-title">{toast.title}</p>
        {toast.description && <p className="toast-description">{toast.description}</p>}
      </div>
      <button
        type="button"
        className="toast-close"
        aria-label="Close notification"
        onClick={() => dismissToast(toast.id)}
      >
        <CloseIcon size={18} />
      </button>
    </li>
  )
}
