CREATE TABLE `demo_payment_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`payload` text NOT NULL,
	`created_at` integer NOT NULL,
	`delivered_at` integer,
	`attempts` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `demo_payment_events_pending_idx` ON `demo_payment_events` (`delivered_at`,`created_at`);--> statement-breakpoint
CREATE TABLE `demo_payment_refunds` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`params` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`status` text NOT NULL,
	`failure_reason` text,
	`metadata` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `demo_payment_sessions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `demo_payment_refunds_idempotency_key_unique` ON `demo_payment_refunds` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `demo_payment_refunds_session_idx` ON `demo_payment_refunds` (`session_id`);