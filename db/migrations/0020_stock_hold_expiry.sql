-- Holds still reserved, by when they run out: the sweep releasing expired holds (every 15 s) reads a range of
-- this instead of every reservation the shop ever made, since sold ones stay in the table. A bound status
-- still matches the WHERE of the index (tests/api/stock/checkout.test.ts checks the plan).
CREATE INDEX `stock_reservations_expiry_idx` ON `stock_reservations` (`expires_at`) WHERE "stock_reservations"."status" = 'reserved';