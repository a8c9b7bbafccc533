CREATE TABLE `track_votes` (
	`track_id` integer NOT NULL,
	`direction` text NOT NULL,
	`user_id` integer NOT NULL,
	`vote` integer NOT NULL,
	`word` text,
	`voted_at` integer NOT NULL,
	PRIMARY KEY(`track_id`, `direction`, `user_id`),
	FOREIGN KEY (`track_id`) REFERENCES `tracks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `track_votes_user_idx` ON `track_votes` (`user_id`);