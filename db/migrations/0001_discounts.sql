CREATE TABLE `discount_codes` (
	`code` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`amount` integer NOT NULL,
	`active_from` integer,
	`active_until` integer,
	`max_redemptions` integer,
	`max_per_customer` integer,
	`min_subtotal_cents` integer DEFAULT 0 NOT NULL,
	`first_order_only` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `discount_redemptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`order_ref` text NOT NULL,
	`email` text NOT NULL,
	`user_id` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `discount_redemptions_order_idx` ON `discount_redemptions` (`order_ref`);--> statement-breakpoint
CREATE INDEX `discount_redemptions_code_email_idx` ON `discount_redemptions` (`code`,`email`);