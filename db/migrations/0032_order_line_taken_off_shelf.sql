ALTER TABLE `order_lines` ADD `taken_off_shelf` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Lines sold before this column: nothing recorded whether their stock was counted then, and a cancel or a
-- restocking refund put all their units back. They keep that rule: all their units count as taken off.
UPDATE `order_lines` SET `taken_off_shelf` = `quantity`;
