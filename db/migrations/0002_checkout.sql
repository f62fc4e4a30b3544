CREATE TABLE `checkout_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`email` text NOT NULL,
	`user_id` text,
	`shipping_address` text NOT NULL,
	`billing_address` text NOT NULL,
	`lines` text NOT NULL,
	`discount_code` text,
	`subtotal_cents` integer NOT NULL,
	`discount_cents` integer NOT NULL,
	`shipping_cents` integer NOT NULL,
	`total_cents` integer NOT NULL,
	`item_count` integer NOT NULL,
	`total_weight_tenths_oz` integer NOT NULL,
	`quote_id` text NOT NULL,
	`shipping_carrier` text NOT NULL,
	`shipping_service` text NOT NULL,
	`shipping_service_token` text NOT NULL,
	`estimated_days_min` integer NOT NULL,
	`estimated_days_max` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `checkout_sessions_email_idx` ON `checkout_sessions` (`email`);--> statement-breakpoint
CREATE TABLE `demo_payment_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`client_secret` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`payment_status` text DEFAULT 'unpaid' NOT NULL,
	`amount_total` integer NOT NULL,
	`currency` text NOT NULL,
	`customer_email` text NOT NULL,
	`request` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `demo_payment_sessions_client_secret_unique` ON `demo_payment_sessions` (`client_secret`);--> statement-breakpoint
CREATE UNIQUE INDEX `demo_payment_sessions_idempotency_key_unique` ON `demo_payment_sessions` (`idempotency_key`);--> statement-breakpoint
CREATE TABLE `shipping_quotes` (
	`id` text PRIMARY KEY NOT NULL,
	`carrier` text NOT NULL,
	`service_name` text NOT NULL,
	`service_token` text NOT NULL,
	`provider_rate_id` text NOT NULL,
	`price_cents` integer NOT NULL,
	`free_eligible` integer NOT NULL,
	`estimated_days_min` integer NOT NULL,
	`estimated_days_max` integer NOT NULL,
	`cart_fingerprint` text NOT NULL,
	`address_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `shipping_quotes_expires_at_idx` ON `shipping_quotes` (`expires_at`);--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` text NOT NULL,
	`payload` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`max_attempts` integer NOT NULL,
	`run_at` integer NOT NULL,
	`locked_until` integer,
	`last_error` text,
	`dedupe_key` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_dedupe_key_unique` ON `jobs` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `jobs_due_idx` ON `jobs` (`status`,`run_at`);--> statement-breakpoint
CREATE TABLE `order_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_id` integer NOT NULL,
	`position` integer NOT NULL,
	`product_id` integer NOT NULL,
	`name` text NOT NULL,
	`variant` text,
	`unit_cents` integer NOT NULL,
	`quantity` integer NOT NULL,
	`discount_cents` integer NOT NULL,
	`weight_tenths_oz` integer NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `order_lines_order_position_idx` ON `order_lines` (`order_id`,`position`);--> statement-breakpoint
CREATE TABLE `orders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`checkout_session_id` text NOT NULL,
	`source_event_id` text NOT NULL,
	`user_id` text,
	`email` text NOT NULL,
	`customer_name` text NOT NULL,
	`shipping_address` text NOT NULL,
	`billing_address` text NOT NULL,
	`subtotal_cents` integer NOT NULL,
	`discount_cents` integer NOT NULL,
	`discount_code` text,
	`shipping_cents` integer NOT NULL,
	`total_cents` integer NOT NULL,
	`item_count` integer NOT NULL,
	`total_weight_tenths_oz` integer NOT NULL,
	`shipping_carrier` text NOT NULL,
	`shipping_service` text NOT NULL,
	`shipping_service_token` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`shippo_tracking_number` text,
	`label_url` text,
	`failure_reason` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `orders_checkout_session_id_unique` ON `orders` (`checkout_session_id`);--> statement-breakpoint
CREATE INDEX `orders_status_idx` ON `orders` (`status`);--> statement-breakpoint
CREATE INDEX `orders_email_idx` ON `orders` (`email`);--> statement-breakpoint
CREATE INDEX `orders_user_id_idx` ON `orders` (`user_id`);--> statement-breakpoint
CREATE INDEX `orders_created_at_idx` ON `orders` (`created_at`);--> statement-breakpoint
CREATE TABLE `webhook_events` (
	`id` text PRIMARY KEY NOT NULL,
	`event_type` text NOT NULL,
	`order_id` integer,
	`status` text NOT NULL,
	`processing_time_ms` integer,
	`note` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_events_created_at_idx` ON `webhook_events` (`created_at`);