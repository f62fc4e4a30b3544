-- What a save of units received added (the product and its figures), so the same Idempotency-Key sent with
-- a different save is refused instead of adding nothing in silence.
ALTER TABLE `stock_receipts` ADD `fingerprint` text DEFAULT '' NOT NULL;