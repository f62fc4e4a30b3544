ALTER TABLE `order_lines` ADD `unsettled_on_shelf` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `order_lines` ADD `unsettled_out` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `order_lines` ADD `unsettled_off` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `order_refund_lines` ADD `settles_on_shelf` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `order_refund_lines` ADD `settles_out` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `order_refund_lines` ADD `settles_off` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Units of refunds that failed before this migration, by where the rule of the time left them: a restocking
-- refund still marked restocked kept its units on the shelf, one not marked had them out (to ship, or taken
-- off the shelf again), one without restock kept them off the shelf.
UPDATE `order_lines` SET
  `unsettled_on_shelf` = (SELECT coalesce(sum(rl.`quantity`), 0) FROM `order_refund_lines` rl
    JOIN `order_refunds` r ON r.`id` = rl.`refund_id`
    WHERE rl.`line_id` = `order_lines`.`id` AND r.`status` IN ('failed', 'canceled')
      AND r.`restock` = 1 AND r.`restocked_at` IS NOT NULL),
  `unsettled_out` = (SELECT coalesce(sum(rl.`quantity`), 0) FROM `order_refund_lines` rl
    JOIN `order_refunds` r ON r.`id` = rl.`refund_id`
    WHERE rl.`line_id` = `order_lines`.`id` AND r.`status` IN ('failed', 'canceled')
      AND r.`restock` = 1 AND r.`restocked_at` IS NULL),
  `unsettled_off` = (SELECT coalesce(sum(rl.`quantity`), 0) FROM `order_refund_lines` rl
    JOIN `order_refunds` r ON r.`id` = rl.`refund_id`
    WHERE rl.`line_id` = `order_lines`.`id` AND r.`status` IN ('failed', 'canceled') AND r.`restock` = 0)
WHERE `id` IN (SELECT rl.`line_id` FROM `order_refund_lines` rl JOIN `order_refunds` r ON r.`id` = rl.`refund_id`
  WHERE r.`status` IN ('failed', 'canceled'));
--> statement-breakpoint
-- Refunds made again since took some of those over, unrecorded: a line never holds more units than it has, so
-- what its standing refunds and the failed ones' units add up to beyond it was taken over. The refunds made
-- again, newest first, are recorded as having taken those over on the shelf: the reading that puts the fewest
-- back later (a restocking one made later puts back only the rest; one that fails leaves them on the shelf).
UPDATE `order_refund_lines` SET `settles_on_shelf` = t.`taken`
FROM (
  SELECT rl.`refund_id`, rl.`line_id`,
    min(rl.`quantity`, max(0, e.`excess` - coalesce(sum(rl.`quantity`) OVER (PARTITION BY rl.`line_id`
      ORDER BY r.`created_at` DESC, r.`id` DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0))) AS `taken`
  FROM `order_refund_lines` rl
  JOIN `order_refunds` r ON r.`id` = rl.`refund_id` AND r.`status` IN ('requested', 'pending', 'succeeded')
  JOIN (
    SELECT l.`id`, max(0, (SELECT coalesce(sum(x.`quantity`), 0) FROM `order_refund_lines` x
        JOIN `order_refunds` xr ON xr.`id` = x.`refund_id`
        WHERE x.`line_id` = l.`id` AND xr.`status` IN ('requested', 'pending', 'succeeded'))
      + l.`unsettled_on_shelf` + l.`unsettled_out` + l.`unsettled_off` - l.`quantity`) AS `excess`
    FROM `order_lines` l
    WHERE l.`unsettled_on_shelf` + l.`unsettled_out` + l.`unsettled_off` > 0
  ) e ON e.`id` = rl.`line_id`
) t
WHERE `order_refund_lines`.`refund_id` = t.`refund_id` AND `order_refund_lines`.`line_id` = t.`line_id`
  AND t.`taken` > 0;
--> statement-breakpoint
-- And the line no longer has them unsettled: taken from those out first (which a cancel would put back either
-- way), then those off, then those on the shelf.
UPDATE `order_lines` SET `unsettled_out` = max(0, `unsettled_out` - max(0,
  (SELECT coalesce(sum(rl.`quantity`), 0) FROM `order_refund_lines` rl JOIN `order_refunds` r ON r.`id` = rl.`refund_id`
    WHERE rl.`line_id` = `order_lines`.`id` AND r.`status` IN ('requested', 'pending', 'succeeded'))
  + `unsettled_on_shelf` + `unsettled_out` + `unsettled_off` - `quantity`))
WHERE `unsettled_out` > 0;
--> statement-breakpoint
UPDATE `order_lines` SET `unsettled_off` = max(0, `unsettled_off` - max(0,
  (SELECT coalesce(sum(rl.`quantity`), 0) FROM `order_refund_lines` rl JOIN `order_refunds` r ON r.`id` = rl.`refund_id`
    WHERE rl.`line_id` = `order_lines`.`id` AND r.`status` IN ('requested', 'pending', 'succeeded'))
  + `unsettled_on_shelf` + `unsettled_out` + `unsettled_off` - `quantity`))
WHERE `unsettled_off` > 0;
--> statement-breakpoint
UPDATE `order_lines` SET `unsettled_on_shelf` = max(0, `unsettled_on_shelf` - max(0,
  (SELECT coalesce(sum(rl.`quantity`), 0) FROM `order_refund_lines` rl JOIN `order_refunds` r ON r.`id` = rl.`refund_id`
    WHERE rl.`line_id` = `order_lines`.`id` AND r.`status` IN ('requested', 'pending', 'succeeded'))
  + `unsettled_on_shelf` + `unsettled_out` + `unsettled_off` - `quantity`))
WHERE `unsettled_on_shelf` > 0;
