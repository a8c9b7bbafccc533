CREATE TABLE `decline_templates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`text` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `track_decision_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`track_id` integer NOT NULL,
	`direction` text NOT NULL,
	`revision` integer NOT NULL,
	`from_status` text NOT NULL,
	`to_status` text NOT NULL,
	`note` text,
	`message` text,
	`decided_by` integer,
	`decided_at` integer NOT NULL,
	FOREIGN KEY (`track_id`) REFERENCES `tracks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`decided_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `track_decision_history_pair_revision_idx` ON `track_decision_history` (`track_id`,`direction`,`revision`);--> statement-breakpoint
CREATE TABLE `track_decisions` (
	`track_id` integer NOT NULL,
	`direction` text NOT NULL,
	`status` text DEFAULT 'new' NOT NULL,
	`note` text,
	`message` text,
	`decided_by` integer,
	`decided_at` integer,
	`revision` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`track_id`, `direction`),
	FOREIGN KEY (`track_id`) REFERENCES `tracks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`decided_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `track_decisions_direction_status_idx` ON `track_decisions` (`direction`,`status`);