CREATE TABLE `feedback_ratings` (
	`track_id` integer NOT NULL,
	`direction` text NOT NULL,
	`user_id` integer NOT NULL,
	`staff_id` integer,
	`rating` integer NOT NULL,
	`words` text,
	`rated_at` integer NOT NULL,
	PRIMARY KEY(`track_id`, `direction`),
	FOREIGN KEY (`track_id`) REFERENCES `tracks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`staff_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `feedback_ratings_rated_at_idx` ON `feedback_ratings` (`rated_at`);--> statement-breakpoint
CREATE TABLE `track_pair_reasons` (
	`track_id` integer NOT NULL,
	`direction` text NOT NULL,
	`revision` integer NOT NULL,
	`reasons` text NOT NULL,
	PRIMARY KEY(`track_id`, `direction`, `revision`),
	FOREIGN KEY (`track_id`) REFERENCES `tracks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `track_versions` (
	`track_id` integer PRIMARY KEY NOT NULL,
	`version_of` integer,
	`original_id` integer NOT NULL,
	`number` integer NOT NULL,
	`cooldown_passed` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`track_id`) REFERENCES `tracks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`version_of`) REFERENCES `tracks`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `track_versions_original_idx` ON `track_versions` (`original_id`,`number`);--> statement-breakpoint
CREATE TABLE `upload_versions` (
	`upload_id` text PRIMARY KEY NOT NULL,
	`version_of` integer NOT NULL,
	`cooldown_passed` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`upload_id`) REFERENCES `upload_sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `version_offers` (
	`track_id` integer PRIMARY KEY NOT NULL,
	`similar_to` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`track_id`) REFERENCES `tracks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`similar_to`) REFERENCES `tracks`(`id`) ON UPDATE no action ON DELETE cascade
);
