import type { DashboardOrder } from './api'

/** What staff can do to an order, from the table or the order's own view. */
export interface OrderActions {
  /** True when the server did it (the order then moves on, and its button goes), false when refused. */
  retry(order: DashboardOrder): Promise<boolean>
  ship(order: DashboardOrder): Promise<boolean>
  /** Orders with an action under way: their buttons wait. */
  busy: ReadonlySet<number>
  open(order: Pick<DashboardOrder, 'id'>, opener: HTMLElement): void
}
