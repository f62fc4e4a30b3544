/**
 * Presses on the header's buttons before its island has hydrated. The header hydrates after the first paint
 * (docs/decisions/030-nothing-fetched-before-first-paint.md), and on a slow phone React arrives a second or
 * more later: until then its menu, search, dropdown and theme buttons are only HTML, and a tap on them was
 * lost. A small inline script (EARLY_PRESS_SCRIPT, in <head> on every page) keeps such a press on the <html>
 * element, where the page's CSS shows the button as taken at once; the header carries it out as it hydrates
 * (`takeEarlyPanel`, `takeEarlyThemePress`). The same rule as the shop's forms: what can be pressed before
 * hydration works or waits, never does nothing (docs/decisions/009-forms-before-hydration.md).
 *
 * - The panels (the phone menu, the search, a desktop dropdown) open one at a time, so one is kept: the last
 *   one pressed, and a second press on the same button takes it back, as it would close an open panel.
 * - The theme switch is kept as whether it was pressed an odd number of times.
 *
 * A press counts only while the button's island still has Astro's `ssr` attribute: Astro removes it right
 * after handing the island to React, which from then on answers (or replays) presses itself.
 */

/** The attribute a header button carries to be kept: `menu`, `search`, `theme` or `group:<nav group id>`. */
export const EARLY_PRESS_ATTRIBUTE = 'data-early-press'
/** On <html>: the panel pressed before hydration. */
export const EARLY_PANEL_ATTRIBUTE = 'data-early-panel'
/** On <html>: present when the theme switch was pressed (an odd number of times) before hydration. */
export const EARLY_THEME_ATTRIBUTE = 'data-early-theme'

/** Before a desktop dropdown's group id in its press (the page's CSS matches it too). */
export const EARLY_GROUP_PREFIX = 'group:'

export const EARLY_PRESS = {
  menu: 'menu',
  search: 'search',
  theme: 'theme',
  group: (id: string) => `${EARLY_GROUP_PREFIX}${id}`,
} as const

/**
 * Inline in <head>, before anything can be pressed; ES5 and tiny. The layout adds its hash to the page's
 * CSP, as for the theme script.
 */
export const EARLY_PRESS_SCRIPT = `(function(){var d=document.documentElement;document.addEventListener('click',function(e){var b=e.target&&e.target.closest&&e.target.closest('[${EARLY_PRESS_ATTRIBUTE}]'),i=b&&b.closest('astro-island');if(!i||!i.hasAttribute('ssr'))return;var k=b.getAttribute('${EARLY_PRESS_ATTRIBUTE}');if(k==='${EARLY_PRESS.theme}'){d.toggleAttribute('${EARLY_THEME_ATTRIBUTE}')}else if(d.getAttribute('${EARLY_PANEL_ATTRIBUTE}')===k){d.removeAttribute('${EARLY_PANEL_ATTRIBUTE}')}else{d.setAttribute('${EARLY_PANEL_ATTRIBUTE}',k)}},true)})()`

/** The panel pressed before hydration (`menu`, `search` or `group:<id>`), or null; forgotten as it is read. */
export function takeEarlyPanel(root: Element = document.documentElement): string | null {
  const panel = root.getAttribute(EARLY_PANEL_ATTRIBUTE)
  root.removeAttribute(EARLY_PANEL_ATTRIBUTE)
  return panel
}

/** Whether the theme switch was pressed before hydration; forgotten as it is read, so it switches once. */
export function takeEarlyThemePress(root: Element = document.documentElement): boolean {
  const pressed = root.hasAttribute(EARLY_THEME_ATTRIBUTE)
  root.removeAttribute(EARLY_THEME_ATTRIBUTE)
  return pressed
}
