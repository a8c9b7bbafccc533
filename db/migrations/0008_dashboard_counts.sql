CREATE TABLE `track_counts` (
	`directions` text NOT NULL,
	`review` text NOT NULL,
	`downloaded` integer NOT NULL,
	`failed` integer NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`directions`, `review`, `downloaded`, `failed`)
);
--> statement-breakpoint
CREATE TABLE `user_track_counts` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`n` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `user_track_counts_n_user_idx` ON `user_track_counts` (`n`,`user_id`);