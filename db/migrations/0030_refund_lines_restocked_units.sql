ALTER TABLE `order_refund_lines` ADD `restocked_quantity` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Refunds made before this column put back what the rule of the time allowed: each line's units, at most
-- the line's quantity less what restocking refunds marked before it had put back. Worked out the same way
-- here, in the order they were marked, so the shelf's record matches what moved.
UPDATE `order_refund_lines` SET `restocked_quantity` = (
  SELECT max(0, min(`order_refund_lines`.`quantity`, l.`quantity` - coalesce((
    SELECT sum(e.`quantity`) FROM `order_refund_lines` e JOIN `order_refunds` er ON er.`id` = e.`refund_id`
    WHERE e.`line_id` = `order_refund_lines`.`line_id` AND er.`restocked_at` IS NOT NULL
      AND (er.`restocked_at` < r.`restocked_at` OR (er.`restocked_at` = r.`restocked_at` AND er.`id` < r.`id`))
  ), 0)))
  FROM `order_refunds` r, `order_lines` l
  WHERE r.`id` = `order_refund_lines`.`refund_id` AND l.`id` = `order_refund_lines`.`line_id`
)
WHERE `refund_id` IN (SELECT `id` FROM `order_refunds` WHERE `restocked_at` IS NOT NULL AND `restock` = 1);
