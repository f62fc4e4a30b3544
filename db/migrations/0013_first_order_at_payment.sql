ALTER TABLE `orders` ADD `discount_warning` text;--> statement-breakpoint
CREATE INDEX `checkout_sessions_reservation_idx` ON `checkout_sessions` (`discount_reservation_key`);