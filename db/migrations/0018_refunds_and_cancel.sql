CREATE TABLE `order_refund_lines` (
	`refund_id` text NOT NULL,
	`line_id` integer NOT NULL,
	`quantity` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	PRIMARY KEY(`refund_id`, `line_id`),
	FOREIGN KEY (`refund_id`) REFERENCES `order_refunds`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`line_id`) REFERENCES `order_lines`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `order_refund_lines_line_idx` ON `order_refund_lines` (`line_id`);--> statement-breakpoint
CREATE TABLE `order_refunds` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` integer NOT NULL,
	`origin` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`status` text NOT NULL,
	`provider_refund_id` text,
	`restock` integer DEFAULT false NOT NULL,
	`restocked_at` integer,
	`reason` text,
	`failure_reason` text,
	`actor` text NOT NULL,
	`request_key` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `order_refunds_provider_refund_id_unique` ON `order_refunds` (`provider_refund_id`);--> statement-breakpoint
CREATE INDEX `order_refunds_order_idx` ON `order_refunds` (`order_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `order_refunds_request_key_idx` ON `order_refunds` (`order_id`,`request_key`);--> statement-breakpoint
CREATE INDEX `order_refunds_status_idx` ON `order_refunds` (`status`);--> statement-breakpoint
ALTER TABLE `orders` ADD `payment_ref` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `label_id` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `label_void_status` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `cancelled_at` integer;--> statement-breakpoint
CREATE INDEX `orders_payment_ref_idx` ON `orders` (`payment_ref`);--> statement-breakpoint
-- The dashboard's counts read one row per status (migration 0010's triggers keep them): the two new ones start at 0.
INSERT INTO `order_status_counts` (`status`, `orders`) VALUES ('cancelled', 0), ('refunded', 0)
ON CONFLICT (`status`) DO NOTHING;
