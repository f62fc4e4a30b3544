ALTER TABLE `stock_levels` ADD `held` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- `held`: units every `reserved` reservation holds, expired or not. The guard summed the live reservations
-- of a product on every hold, so a checkout grew slower with each open one (a launch with thousands open);
-- with the count kept here, a hold that fits under `on_hand - held` needs no sum. The count is never below
-- what live reservations hold, so the fast answer is only ever "yes, it fits"; near the last units the
-- guard sums exactly as before. docs/decisions/026-stock-reserved-at-checkout.md.
UPDATE `stock_levels` SET `held` = coalesce((
  SELECT sum(r.`quantity`) FROM `stock_reservations` r
  WHERE r.`product_id` = `stock_levels`.`product_id` AND r.`variant` = `stock_levels`.`variant` AND r.`status` = 'reserved'
), 0);--> statement-breakpoint
-- A shelf counted for the first time (or written again by INSERT OR REPLACE) starts from what is held now.
CREATE TRIGGER `stock_levels_held_start` AFTER INSERT ON `stock_levels` BEGIN
  UPDATE `stock_levels` SET `held` = coalesce((
    SELECT sum(r.`quantity`) FROM `stock_reservations` r
    WHERE r.`product_id` = NEW.`product_id` AND r.`variant` = NEW.`variant` AND r.`status` = 'reserved'
  ), 0)
  WHERE `product_id` = NEW.`product_id` AND `variant` = NEW.`variant`;
END;--> statement-breakpoint
CREATE TRIGGER `stock_reservations_held_insert` AFTER INSERT ON `stock_reservations`
WHEN NEW.`status` = 'reserved' BEGIN
  UPDATE `stock_levels` SET `held` = `held` + NEW.`quantity`
  WHERE `product_id` = NEW.`product_id` AND `variant` = NEW.`variant`;
END;--> statement-breakpoint
-- A hold taken over, released or sold. Expiry changes nothing here: expired holds count until their session ends.
CREATE TRIGGER `stock_reservations_held_update` AFTER UPDATE OF `status`, `quantity`, `product_id`, `variant` ON `stock_reservations`
WHEN OLD.`status` = 'reserved' OR NEW.`status` = 'reserved' BEGIN
  UPDATE `stock_levels` SET `held` = `held` - OLD.`quantity`
  WHERE OLD.`status` = 'reserved' AND `product_id` = OLD.`product_id` AND `variant` = OLD.`variant`;
  UPDATE `stock_levels` SET `held` = `held` + NEW.`quantity`
  WHERE NEW.`status` = 'reserved' AND `product_id` = NEW.`product_id` AND `variant` = NEW.`variant`;
END;--> statement-breakpoint
CREATE TRIGGER `stock_reservations_held_delete` AFTER DELETE ON `stock_reservations`
WHEN OLD.`status` = 'reserved' BEGIN
  UPDATE `stock_levels` SET `held` = `held` - OLD.`quantity`
  WHERE `product_id` = OLD.`product_id` AND `variant` = OLD.`variant`;
END;--> statement-breakpoint
-- The guard of migration 0017, with the count's fast answer first; CASE evaluates only the branch it takes.
DROP TRIGGER `stock_reservations_guard`;--> statement-breakpoint
CREATE TRIGGER `stock_reservations_guard` BEFORE INSERT ON `stock_reservations`
WHEN NEW.`status` = 'reserved' AND (
  SELECT CASE WHEN l.`on_hand` - l.`held` >= NEW.`quantity` THEN 0 ELSE l.`on_hand` - coalesce((
    SELECT sum(r.`quantity`) FROM `stock_reservations` r
    WHERE r.`product_id` = NEW.`product_id` AND r.`variant` = NEW.`variant` AND r.`status` = 'reserved'
      AND r.`expires_at` > NEW.`created_at` AND r.`reservation_key` <> NEW.`reservation_key`
  ), 0) < NEW.`quantity` END
  FROM `stock_levels` l
  WHERE l.`product_id` = NEW.`product_id` AND l.`variant` = NEW.`variant` AND l.`on_hand` IS NOT NULL
) BEGIN
  SELECT RAISE(ABORT, 'stock: too few left');
END;
