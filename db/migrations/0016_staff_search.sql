CREATE TABLE `order_quarter_hours` (
	`quarter_hour` integer PRIMARY KEY NOT NULL,
	`orders` integer DEFAULT 0 NOT NULL,
	`takings_cents` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `orders_customer_name_search_idx` ON `orders` (lower("customer_name"));--> statement-breakpoint
INSERT INTO `order_quarter_hours` (`quarter_hour`, `orders`, `takings_cents`)
SELECT `created_at` / 900000, count(*), sum(`total_cents`) FROM `orders` GROUP BY `created_at` / 900000;
--> statement-breakpoint
CREATE TRIGGER `order_quarter_hours_insert` AFTER INSERT ON `orders` BEGIN
  INSERT INTO `order_quarter_hours` (`quarter_hour`, `orders`, `takings_cents`)
  VALUES (NEW.`created_at` / 900000, 1, NEW.`total_cents`)
  ON CONFLICT (`quarter_hour`) DO UPDATE SET `orders` = `orders` + 1, `takings_cents` = `takings_cents` + excluded.`takings_cents`;
END;
--> statement-breakpoint
CREATE TRIGGER `order_quarter_hours_update` AFTER UPDATE OF `created_at`, `total_cents` ON `orders`
WHEN OLD.`created_at` IS NOT NEW.`created_at` OR OLD.`total_cents` IS NOT NEW.`total_cents` BEGIN
  UPDATE `order_quarter_hours` SET `orders` = `orders` - 1, `takings_cents` = `takings_cents` - OLD.`total_cents`
  WHERE `quarter_hour` = OLD.`created_at` / 900000;
  INSERT INTO `order_quarter_hours` (`quarter_hour`, `orders`, `takings_cents`)
  VALUES (NEW.`created_at` / 900000, 1, NEW.`total_cents`)
  ON CONFLICT (`quarter_hour`) DO UPDATE SET `orders` = `orders` + 1, `takings_cents` = `takings_cents` + excluded.`takings_cents`;
END;
--> statement-breakpoint
CREATE TRIGGER `order_quarter_hours_delete` AFTER DELETE ON `orders` BEGIN
  UPDATE `order_quarter_hours` SET `orders` = `orders` - 1, `takings_cents` = `takings_cents` - OLD.`total_cents`
  WHERE `quarter_hour` = OLD.`created_at` / 900000;
END;
