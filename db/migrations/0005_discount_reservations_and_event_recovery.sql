PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_discount_redemptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`status` text DEFAULT 'redeemed' NOT NULL,
	`reservation_key` text,
	`order_ref` text,
	`email` text NOT NULL,
	`customer_key` text DEFAULT '' NOT NULL,
	`user_id` text,
	`expires_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_discount_redemptions`("id", "code", "status", "order_ref", "email", "customer_key", "user_id", "created_at") SELECT "id", "code", 'redeemed', "order_ref", "email", lower("email"), "user_id", "created_at" FROM `discount_redemptions`;--> statement-breakpoint
DROP TABLE `discount_redemptions`;--> statement-breakpoint
ALTER TABLE `__new_discount_redemptions` RENAME TO `discount_redemptions`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `discount_redemptions_order_idx` ON `discount_redemptions` (`order_ref`);--> statement-breakpoint
CREATE UNIQUE INDEX `discount_redemptions_reservation_idx` ON `discount_redemptions` (`reservation_key`);--> statement-breakpoint
CREATE INDEX `discount_redemptions_code_status_idx` ON `discount_redemptions` (`code`,`status`);--> statement-breakpoint
CREATE INDEX `discount_redemptions_customer_idx` ON `discount_redemptions` (`customer_key`);--> statement-breakpoint
CREATE INDEX `discount_redemptions_user_idx` ON `discount_redemptions` (`user_id`);--> statement-breakpoint
ALTER TABLE `checkout_sessions` ADD `discount_reservation_key` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `customer_key` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `orders_customer_key_idx` ON `orders` (`customer_key`);--> statement-breakpoint
ALTER TABLE `webhook_events` ADD `session_id` text;--> statement-breakpoint
ALTER TABLE `webhook_events` ADD `payload` text;--> statement-breakpoint
ALTER TABLE `webhook_events` ADD `claimed_until` integer;--> statement-breakpoint
CREATE INDEX `webhook_events_status_idx` ON `webhook_events` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_events_session_idx` ON `webhook_events` (`session_id`);--> statement-breakpoint
UPDATE `orders` SET `customer_key` = lower(`email`);--> statement-breakpoint
UPDATE `orders` SET `customer_key` = substr(`customer_key`, 1, instr(`customer_key`, '+') - 1) || substr(`customer_key`, instr(`customer_key`, '@')) WHERE instr(`customer_key`, '+') > 1 AND instr(`customer_key`, '+') < instr(`customer_key`, '@');--> statement-breakpoint
UPDATE `discount_redemptions` SET `customer_key` = substr(`customer_key`, 1, instr(`customer_key`, '+') - 1) || substr(`customer_key`, instr(`customer_key`, '@')) WHERE instr(`customer_key`, '+') > 1 AND instr(`customer_key`, '+') < instr(`customer_key`, '@');