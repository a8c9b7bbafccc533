CREATE TABLE `direction_intake` (
	`direction` text PRIMARY KEY NOT NULL,
	`open` integer DEFAULT true NOT NULL,
	`pause_message` text,
	`cap_per_30_days` integer,
	`cooldown_hours` integer,
	`tempo_min` real DEFAULT 160 NOT NULL,
	`tempo_max` real DEFAULT 190 NOT NULL,
	`tempo_mode` text DEFAULT 'flag' NOT NULL,
	`promise_days` integer DEFAULT 14 NOT NULL,
	`auto_decline_after_days` integer DEFAULT 7 NOT NULL,
	`staff_chat_id` text,
	`updated_by` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`updated_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
ALTER TABLE `track_decision_history` ADD `automatic` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `tracks` ADD `ai_use` text;