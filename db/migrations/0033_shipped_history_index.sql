-- Whether an order ever moved to shipped, read for every order that may still ship when the dashboard lists
-- the units paid orders still have to ship: a partial index of the shipped moves, one entry per shipped
-- order, instead of reading each order's whole history.
CREATE INDEX `order_history_shipped_idx` ON `order_history` (`order_id`) WHERE "order_history"."to_status" = 'shipped';