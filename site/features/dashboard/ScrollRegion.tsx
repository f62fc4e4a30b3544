import type { ReactNode } from 'react'

/**
 * A named region that scrolls sideways when its table is wider than the screen (a phone), so the page
 * around it stays the screen's width. It takes focus, so a keyboard can scroll it too (WCAG 2.1.1).
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (WCAG 2.1.1)
    <section className="overflow-x-auto" aria-label={label} tabIndex={0}>
      {children}
    </section>
  )
}
