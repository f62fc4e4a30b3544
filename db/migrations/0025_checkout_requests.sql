-- Checkout requests in flight under one reservation key (docs/decisions/032): the same request sent twice
-- at once holds under one key, and one of the two failing gives back what it holds only when no other
-- request under the key is in flight and no session stored under it can still be paid.
CREATE TABLE `checkout_requests` (
	`reservation_key` text NOT NULL,
	`request_id` text NOT NULL,
	`started_at` integer NOT NULL,
	PRIMARY KEY(`reservation_key`, `request_id`)
);
