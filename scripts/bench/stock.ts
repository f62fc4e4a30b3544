/**
 * Every listed product and scent counted, as a shop that tracks its batches: a checkout then holds units in
 * the transaction that opens its session, and a paid order sells them
 * (docs/decisions/026-stock-reserved-at-checkout.md). Used by the load test (scripts/bench.ts) and the
 * in-process micro-benchmark (`micro.ts --stock`), so both measure the same hold.
 */

/** More units than any run can sell, so no checkout is refused, yet every one holds its units. */
export const BENCH_STOCK = 10_000_000

/** The statement that counts them; its one argument is the time it is counted at (epoch ms). */
export const COUNT_EVERY_PRODUCT = `insert or replace into stock_levels (product_id, variant, on_hand, updated_at)
  select p.id, coalesce(v.value, ''), ${BENCH_STOCK}, ? from products p
  left join json_each(p.variants) v where p.listed = 1`
