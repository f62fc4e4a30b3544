/**
 * Controls that only work once a module has run are `disabled` and marked `data-waiting` in the static
 * HTML, so a press before then is not silently lost (docs/decisions/009-forms-before-hydration.md); the
 * module that makes them work enables them. Only the ones still waiting: a control the page has disabled
 * since for its own reason (a sold-out card) is left as it is.
 */
export function stopWaiting(selector: string): void {
  for (const control of document.querySelectorAll<HTMLButtonElement>(`${selector}[data-waiting]`)) {
    control.disabled = false
    delete control.dataset.waiting
  }
}
