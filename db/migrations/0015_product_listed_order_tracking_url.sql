ALTER TABLE `products` ADD `listed` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `orders` ADD `tracking_url` text;