CREATE TABLE `artist_channels` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`vk_user_id` text,
	`vk_allowed` integer DEFAULT false NOT NULL,
	`channels` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `artist_channels_vk_user_id_unique` ON `artist_channels` (`vk_user_id`);--> statement-breakpoint
CREATE TABLE `episode_notices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`episode_id` integer NOT NULL,
	`track_id` integer NOT NULL,
	`filename` text NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`episode_id`) REFERENCES `episodes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `episode_notices_episode_idx` ON `episode_notices` (`episode_id`,`id`);--> statement-breakpoint
CREATE TABLE `episode_tracks` (
	`episode_id` integer NOT NULL,
	`track_id` integer NOT NULL,
	`direction` text NOT NULL,
	`position` integer NOT NULL,
	`note` text,
	`at_s` integer,
	PRIMARY KEY(`episode_id`, `track_id`),
	FOREIGN KEY (`episode_id`) REFERENCES `episodes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`track_id`) REFERENCES `tracks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `episode_tracks_direction_track_idx` ON `episode_tracks` (`direction`,`track_id`);--> statement-breakpoint
CREATE TABLE `episodes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`direction` text NOT NULL,
	`number` integer NOT NULL,
	`title` text NOT NULL,
	`air_date` text NOT NULL,
	`revision` integer DEFAULT 0 NOT NULL,
	`aired_at` integer,
	`url` text,
	`created_by` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `episodes_direction_number_idx` ON `episodes` (`direction`,`number`);--> statement-breakpoint
CREATE INDEX `episodes_direction_aired_idx` ON `episodes` (`direction`,`aired_at`);--> statement-breakpoint
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
--> statement-breakpoint
DROP INDEX `telegram_outbox_key_unique`;--> statement-breakpoint
ALTER TABLE `telegram_outbox` ADD `channel` text DEFAULT 'telegram' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `telegram_outbox_key_channel_unique` ON `telegram_outbox` (`key`,`channel`);--> statement-breakpoint
CREATE INDEX `telegram_outbox_channel_attempted_idx` ON `telegram_outbox` (`channel`,`attempted_at`);--> statement-breakpoint
ALTER TABLE `direction_intake` ADD `catalogue_prefix` text;--> statement-breakpoint
ALTER TABLE `direction_intake` ADD `catalogue_next` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `direction_intake` ADD `release_extended` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `direction_intake` ADD `release_instrumental` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `releases` ADD `request_told_at` integer;--> statement-breakpoint
ALTER TABLE `releases` ADD `reminders_sent` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `releases` ADD `reminded_at` integer;--> statement-breakpoint
ALTER TABLE `tracks` ADD `similar_to_track_id` integer;--> statement-breakpoint
ALTER TABLE `upload_sessions` ADD `material_kind` text;--> statement-breakpoint
ALTER TABLE `upload_sessions` ADD `release_id` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `allows_write_to_pm` integer;