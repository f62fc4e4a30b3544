import { badgeTone, statusLabel } from '@core/rules/order-status'

/** docs/product.md#order-statuses: the status upper-cased with its first underscore as a space, coloured by family. */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`status-badge status-${badgeTone(status)}`}>{statusLabel(status)}</span>
}
