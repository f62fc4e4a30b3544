CREATE TABLE `order_status_counts` (
	`status` text PRIMARY KEY NOT NULL,
	`orders` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO `order_status_counts` (`status`, `orders`)
SELECT `value`, (SELECT count(*) FROM `orders` WHERE `orders`.`status` = `value`)
FROM (SELECT 'pending' AS `value` UNION ALL SELECT 'processing' UNION ALL SELECT 'label_created'
      UNION ALL SELECT 'shipped' UNION ALL SELECT 'failed');
--> statement-breakpoint
CREATE TRIGGER `order_status_counts_insert` AFTER INSERT ON `orders` BEGIN
  INSERT INTO `order_status_counts` (`status`, `orders`) VALUES (NEW.`status`, 1)
  ON CONFLICT (`status`) DO UPDATE SET `orders` = `orders` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `order_status_counts_update` AFTER UPDATE OF `status` ON `orders`
WHEN OLD.`status` IS NOT NEW.`status` BEGIN
  UPDATE `order_status_counts` SET `orders` = `orders` - 1 WHERE `status` = OLD.`status`;
  INSERT INTO `order_status_counts` (`status`, `orders`) VALUES (NEW.`status`, 1)
  ON CONFLICT (`status`) DO UPDATE SET `orders` = `orders` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `order_status_counts_delete` AFTER DELETE ON `orders` BEGIN
  UPDATE `order_status_counts` SET `orders` = `orders` - 1 WHERE `status` = OLD.`status`;
END;
