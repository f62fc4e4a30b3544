-- A cart's next checkout session takes over the units its earlier one holds (docs/decisions/032): while a
-- row here names the two keys, the guard leaves the earlier session's holds out of what others hold for the
-- next one's reservations. The earlier session keeps its holds until the payment provider has ended it, so
-- a next session refused, or an earlier one that cannot be ended, leaves everything as it was.
CREATE TABLE `stock_handovers` (
	`from_key` text NOT NULL,
	`to_key` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`to_key`, `from_key`)
);
--> statement-breakpoint
CREATE INDEX `stock_handovers_from_idx` ON `stock_handovers` (`from_key`);--> statement-breakpoint
DROP TRIGGER `stock_reservations_guard`;--> statement-breakpoint
CREATE TRIGGER `stock_reservations_guard` BEFORE INSERT ON `stock_reservations`
WHEN NEW.`status` = 'reserved' AND (
  SELECT CASE WHEN l.`on_hand` - l.`held` >= NEW.`quantity` THEN 0 ELSE l.`on_hand` - coalesce((
    SELECT sum(r.`quantity`) FROM `stock_reservations` r
    WHERE r.`product_id` = NEW.`product_id` AND r.`variant` = NEW.`variant` AND r.`status` = 'reserved'
      AND r.`expires_at` > NEW.`created_at` AND r.`reservation_key` <> NEW.`reservation_key`
      AND r.`reservation_key` NOT IN (
        SELECT h.`from_key` FROM `stock_handovers` h WHERE h.`to_key` = NEW.`reservation_key`)
  ), 0) < NEW.`quantity` END
  FROM `stock_levels` l
  WHERE l.`product_id` = NEW.`product_id` AND l.`variant` = NEW.`variant` AND l.`on_hand` IS NOT NULL
) BEGIN
  SELECT RAISE(ABORT, 'stock: too few left');
END;
