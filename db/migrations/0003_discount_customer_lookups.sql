CREATE INDEX `discount_redemptions_email_idx` ON `discount_redemptions` (`email`);--> statement-breakpoint
CREATE INDEX `discount_redemptions_user_idx` ON `discount_redemptions` (`user_id`);