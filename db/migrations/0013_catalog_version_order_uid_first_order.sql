CREATE TABLE `catalog_version` (
	`id` integer PRIMARY KEY NOT NULL,
	`version` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `catalog_version` (`id`, `version`) VALUES (1, 1);
--> statement-breakpoint
-- SQLite adds a NOT NULL column only with a constant default: '' here, then every existing order gets a
-- random uid of its own before the unique index is made. New orders get theirs from the app (newOrderUid).
-- label_reference is left as it is: a label bought before this migration carries the order number alone
-- at the carrier, and a retry of that order must still find it.
ALTER TABLE `orders` ADD `uid` text NOT NULL DEFAULT '';--> statement-breakpoint
UPDATE `orders` SET `uid` = lower(hex(randomblob(10)));--> statement-breakpoint
CREATE UNIQUE INDEX `orders_uid_unique` ON `orders` (`uid`);
--> statement-breakpoint
ALTER TABLE `orders` ADD `discount_warning` text;--> statement-breakpoint
CREATE INDEX `checkout_sessions_reservation_idx` ON `checkout_sessions` (`discount_reservation_key`);
