-- Indexes nothing reads, each written by every checkout or payment event: the demo provider's client secret
-- (its payment page finds the session by the id inside the secret), and the events' time alone (the
-- (created_at, id) index serves every read by time).
DROP INDEX `demo_payment_sessions_client_secret_unique`;--> statement-breakpoint
DROP INDEX `webhook_events_created_at_idx`;