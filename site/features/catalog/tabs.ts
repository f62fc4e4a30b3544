/**
 * Tabs with the ARIA tabs pattern: arrow keys, Home and End move between tabs and select them, only the
 * selected tab is in the tab order. Markup: `[data-tabs]` holding `[role=tab]` buttons whose
 * `aria-controls` name their panels. A `[data-select-tab=<tab id>]` button elsewhere selects a tab.
 * The module loads after the first paint (docs/decisions/030-nothing-fetched-before-first-paint.md), so
 * each root is marked `data-ready` once its tabs answer: until then a press selects nothing.
 */
export function setupTabs(): void {
  for (const root of document.querySelectorAll<HTMLElement>('[data-tabs]')) {
    const tabs = [...root.querySelectorAll<HTMLElement>('[role=tab]')]
    const select = (chosen: HTMLElement, focus = false) => {
      for (const tab of tabs) {
        const selected = tab === chosen
        tab.setAttribute('aria-selected', String(selected))
        tab.tabIndex = selected ? 0 : -1
        const panel = document.getElementById(tab.getAttribute('aria-controls') ?? '')
        if (panel) panel.hidden = !selected
      }
      if (focus) chosen.focus()
    }
    for (const tab of tabs) {
      tab.addEventListener('click', () => select(tab))
      tab.addEventListener('keydown', (event) => {
        const index = tabs.indexOf(tab)
        const next = {
          ArrowRight: index + 1,
          ArrowLeft: index - 1,
          Home: 0,
          End: tabs.length - 1,
        }[event.key]
        if (next === undefined) return
        event.preventDefault()
        const target = tabs[(next + tabs.length) % tabs.length]
        if (target) select(target, true)
      })
    }
    for (const button of root.querySelectorAll<HTMLElement>('[data-select-tab]')) {
      button.addEventListener('click', () => {
        const tab = document.getElementById(button.dataset.selectTab ?? '')
        if (tab) select(tab, true)
      })
    }
    root.dataset.ready = ''
  }
}
