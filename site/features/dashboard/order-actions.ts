import type { DashboardOrder } from './api'

/** What staff can do to an order, from the table or the order's own view. */
export interface OrderActions {
  retry(order: DashboardOrder): Promise<void>
  ship(order: DashboardOrder): Promise<void>
  /** Orders with an action under way: their buttons are disabled. */
  busy: ReadonlySet<number>
  open(order: Pick<DashboardOrder, 'id'>, opener: HTMLElement): void
}
