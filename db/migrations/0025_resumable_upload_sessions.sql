CREATE TABLE `upload_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`filename` text NOT NULL,
	`size` integer NOT NULL,
	`last_modified` integer,
	`directions` text NOT NULL,
	`ai_use` text,
	`mode` text NOT NULL,
	`part_size` integer NOT NULL,
	`part_count` integer NOT NULL,
	`s3_upload_id` text,
	`storage_key` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`state` text DEFAULT 'open' NOT NULL,
	`claimed_until` integer,
	`track_id` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `upload_sessions_user_created_idx` ON `upload_sessions` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `upload_sessions_state_expires_idx` ON `upload_sessions` (`state`,`expires_at`);