-- A cart's next checkout session looks for one the shop ended under the same request's key, so the payment
-- provider is not asked again with a key whose session it ended (docs/decisions/032).
CREATE INDEX `checkout_sessions_stock_key_idx` ON `checkout_sessions` (`stock_reservation_key`);