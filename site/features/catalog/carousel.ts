/** Behaviour for Carousel.astro; see there for the rules. */

export const AUTOPLAY_MS = 5000
export const SWIPE_PX = 50

export function setupCarousels(): void {
  for (const root of document.querySelectorAll<HTMLElement>('[data-carousel]')) setup(root)
}

function setup(root: HTMLElement): void {
  const slides = [...root.querySelectorAll<HTMLElement>('[data-slides] > *')]
  if (slides.length < 2) return
  const live = root.querySelector<HTMLElement>('[data-slides]')
  const dots = [...root.querySelectorAll<HTMLElement>('[data-dot]')]
  const pause = root.querySelector<HTMLButtonElement>('[data-pause]')
  const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)')
  let current = 0
  let pausedByUser = reducedMotion.matches
  let hovered = false
  let focused = false
  let timer: ReturnType<typeof setInterval> | undefined

  function show(index: number): void {
    current = (index + slides.length) % slides.length
    slides.forEach((slide, i) => {
      slide.hidden = i !== current
    })
    dots.forEach((dot, i) => {
      if (i === current) dot.setAttribute('aria-current', 'true')
      else dot.removeAttribute('aria-current')
    })
  }

  function schedule(): void {
    clearInterval(timer)
    const running = !pausedByUser && !hovered && !focused
    // Announce changes only when the person is choosing them; a rotating region that talks is noise.
    live?.setAttribute('aria-live', running ? 'off' : 'polite')
    if (pause) {
      pause.textContent = pausedByUser ? 'Play slideshow' : 'Pause slideshow'
      pause.setAttribute('aria-pressed', String(pausedByUser))
    }
    if (running) timer = setInterval(() => show(current + 1), AUTOPLAY_MS)
  }

  function go(index: number): void {
    show(index)
    schedule() // a manual change restarts the 5 s wait
  }

  root.querySelector('[data-prev]')?.addEventListener('click', () => go(current - 1))
  root.querySelector('[data-next]')?.addEventListener('click', () => go(current + 1))
  for (const dot of dots) dot.addEventListener('click', () => go(Number(dot.dataset.dot)))
  pause?.addEventListener('click', () => {
    pausedByUser = !pausedByUser
    schedule()
  })
  reducedMotion.addEventListener('change', () => {
    pausedByUser = reducedMotion.matches
    schedule()
  })
  root.addEventListener('mouseenter', () => {
    hovered = true
    schedule()
  })
  root.addEventListener('mouseleave', () => {
    hovered = false
    schedule()
  })
  root.addEventListener('focusin', () => {
    focused = true
    schedule()
  })
  root.addEventListener('focusout', (event) => {
    focused = root.contains(event.relatedTarget as Node | null)
    schedule()
  })

  const viewport = root.querySelector<HTMLElement>('[data-viewport]')
  let startX: number | null = null
  viewport?.addEventListener(
    'touchstart',
    (event) => {
      startX = event.touches[0]?.clientX ?? null
    },
    { passive: true },
  )
  viewport?.addEventListener('touchend', (event) => {
    const endX = event.changedTouches[0]?.clientX
    if (startX !== null && endX !== undefined && Math.abs(endX - startX) > SWIPE_PX) {
      go(endX < startX ? current + 1 : current - 1)
    }
    startX = null
  })

  schedule()
}
