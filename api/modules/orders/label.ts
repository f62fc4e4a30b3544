/**
 * Where a bought label can be read. The built-in carrier stores its labels as files and records file://
 * URLs; a browser cannot open those, and they must never leave the server, so staff get the file through
 * an authenticated route. Shippo's labels live at https addresses of its own.
 */
import { isAbsolute, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export type LabelSource = { kind: 'file'; path: string } | { kind: 'redirect'; url: string }
/** A cancelled order's label: never printed; `voidStatus` as the carrier's void left it (null while under way). */
export type CancelledLabel = { kind: 'cancelled'; voidStatus: string | null }
/**
 * The label of an order refunded in full before it shipped: taken off the order and voided at the carrier
 * (refunds.ts unshippedLabelVoidStatements). The order keeps its carrier reference, so it is told apart
 * from one that never had a label.
 */
export type RefundedLabel = { kind: 'refunded' }

/**
 * The label file inside `labelsDir`, or the carrier's https URL; null for anything else. A stored URL
 * pointing outside the labels folder (a tampered or moved database) is refused, never read.
 */
export function labelSource(labelUrl: string | null, labelsDir: string): LabelSource | null {
  if (!labelUrl) return null
  let url: URL
  try {
    url = new URL(labelUrl)
  } catch {
    return null
  }
  if (url.protocol === 'https:') return { kind: 'redirect', url: url.href }
  if (url.protocol !== 'file:') return null
  let path: string
  try {
    path = resolve(fileURLToPath(url))
  } catch {
    return null
  }
  const inside = relative(resolve(labelsDir), path)
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside) || !inside.endsWith('.pdf')) return null
  return { kind: 'file', path }
}
