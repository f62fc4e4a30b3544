-- The stock an order line was sold from (core/rules/stock.ts `stockVariant`), kept on the line so a cancel
-- or refund puts units back on that scent whatever the content lists later. Lines sold before are named as
-- the catalogue maps them now (what a cancel or refund did until this change): a product without scents
-- '', a line without a scent the first, a scent the product has itself; NULL for one it no longer has.
ALTER TABLE `order_lines` ADD `stock_variant` text;--> statement-breakpoint
UPDATE `order_lines` SET `stock_variant` = (
  SELECT CASE
    WHEN json_array_length(p.`variants`) = 0 THEN ''
    WHEN `order_lines`.`variant` IS NULL OR `order_lines`.`variant` = '' THEN json_extract(p.`variants`, '$[0]')
    WHEN EXISTS (SELECT 1 FROM json_each(p.`variants`) v WHERE v.value = `order_lines`.`variant`) THEN `order_lines`.`variant`
  END
  FROM `products` p
  WHERE p.`id` = `order_lines`.`product_id`
);
