CREATE TABLE `track_assignments` (
	`track_id` integer NOT NULL,
	`direction` text NOT NULL,
	`user_id` integer NOT NULL,
	`assigned_by` integer,
	`assigned_at` integer NOT NULL,
	`cleared_call` text,
	PRIMARY KEY(`track_id`, `direction`),
	FOREIGN KEY (`track_id`) REFERENCES `tracks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`assigned_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `track_assignments_user_track_idx` ON `track_assignments` (`user_id`,`track_id`);--> statement-breakpoint
CREATE TABLE `track_presence` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`track_id` integer NOT NULL,
	`at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`track_id`) REFERENCES `tracks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `track_presence_track_at_idx` ON `track_presence` (`track_id`,`at`);