-- Units received once per staff request: a retried save of the dashboard's 'Received' fields (its answer lost on
-- the way) carries the same Idempotency-Key and adds nothing again (docs/decisions/026).
CREATE TABLE `stock_receipts` (
	`key` text PRIMARY KEY NOT NULL,
	`product_id` integer NOT NULL,
	`nonce` text NOT NULL,
	`created_at` integer NOT NULL
);
