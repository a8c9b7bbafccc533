CREATE TABLE `job_leases` (
	`name` text PRIMARY KEY NOT NULL,
	`owner` text NOT NULL,
	`until` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `direction_intake` ADD `late_message` text;--> statement-breakpoint
CREATE INDEX `track_decision_history_automatic_idx` ON `track_decision_history` (`direction`) WHERE "track_decision_history"."automatic" = 1;