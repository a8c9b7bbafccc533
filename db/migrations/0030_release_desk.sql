CREATE TABLE `release_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`release_id` integer NOT NULL,
	`user_id` integer,
	`action` text NOT NULL,
	`before` text,
	`after` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`release_id`) REFERENCES `releases`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `release_history_release_idx` ON `release_history` (`release_id`,`id`);--> statement-breakpoint
CREATE TABLE `release_materials` (
	`release_id` integer NOT NULL,
	`kind` text NOT NULL,
	`state` text DEFAULT 'checking' NOT NULL,
	`reason` text,
	`report` text,
	`filename` text NOT NULL,
	`size` integer NOT NULL,
	`storage_key` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`release_id`, `kind`),
	FOREIGN KEY (`release_id`) REFERENCES `releases`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `releases` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`track_id` integer NOT NULL,
	`direction` text NOT NULL,
	`stage` text DEFAULT 'materials_requested' NOT NULL,
	`revision` integer DEFAULT 0 NOT NULL,
	`title` text,
	`version` text,
	`catalogue_number` text,
	`release_date` text,
	`note` text,
	`label_copy` text,
	`isrc` text,
	`accepted_at` integer NOT NULL,
	`materials_complete_at` integer,
	`released_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`track_id`) REFERENCES `tracks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `releases_track_direction_idx` ON `releases` (`track_id`,`direction`);--> statement-breakpoint
CREATE UNIQUE INDEX `releases_direction_catalogue_idx` ON `releases` (`direction`,`catalogue_number`);--> statement-breakpoint
CREATE UNIQUE INDEX `releases_isrc_idx` ON `releases` (`isrc`);--> statement-breakpoint
CREATE INDEX `releases_direction_stage_idx` ON `releases` (`direction`,`stage`);