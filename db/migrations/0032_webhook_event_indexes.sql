-- The events' status index held every event, and their session index nothing reads. The sweep reads only
-- unfinished events by age: a partial index of those, which an event stored finished never enters.
DROP INDEX `webhook_events_status_idx`;--> statement-breakpoint
DROP INDEX `webhook_events_session_idx`;--> statement-breakpoint
CREATE INDEX `webhook_events_unfinished_idx` ON `webhook_events` (`created_at`) WHERE "webhook_events"."status" = 'received';