CREATE TABLE `stock_levels` (
	`product_id` integer NOT NULL,
	`variant` text NOT NULL,
	`on_hand` integer,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`product_id`, `variant`)
);
--> statement-breakpoint
CREATE TABLE `stock_reservations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`reservation_key` text NOT NULL,
	`product_id` integer NOT NULL,
	`variant` text NOT NULL,
	`quantity` integer NOT NULL,
	`status` text DEFAULT 'reserved' NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `stock_reservations_key_idx` ON `stock_reservations` (`reservation_key`,`product_id`,`variant`);--> statement-breakpoint
CREATE INDEX `stock_reservations_live_idx` ON `stock_reservations` (`product_id`,`variant`,`status`,`expires_at`);--> statement-breakpoint
ALTER TABLE `products` ADD `variants` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `checkout_sessions` ADD `stock_reservation_key` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `stock_warning` text;--> statement-breakpoint
-- The guard: a reservation is refused when the shelf, less what other live reservations hold, has fewer
-- units than it asks for. Its own key's earlier rows are left out, so the same checkout request again takes
-- its hold over. NEW.created_at is the shop's clock at the reservation. Not counted (no row, or on_hand
-- NULL): the subquery is NULL and the guard lets it through. RAISE(ABORT) undoes the whole transaction, so
-- a cart whose second line is short reserves nothing.
CREATE TRIGGER `stock_reservations_guard` BEFORE INSERT ON `stock_reservations`
WHEN NEW.`status` = 'reserved' AND (
  SELECT l.`on_hand` - coalesce((
    SELECT sum(r.`quantity`) FROM `stock_reservations` r
    WHERE r.`product_id` = NEW.`product_id` AND r.`variant` = NEW.`variant` AND r.`status` = 'reserved'
      AND r.`expires_at` > NEW.`created_at` AND r.`reservation_key` <> NEW.`reservation_key`
  ), 0)
  FROM `stock_levels` l
  WHERE l.`product_id` = NEW.`product_id` AND l.`variant` = NEW.`variant` AND l.`on_hand` IS NOT NULL
) < NEW.`quantity` BEGIN
  SELECT RAISE(ABORT, 'stock: too few left');
END;
