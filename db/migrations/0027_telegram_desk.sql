CREATE TABLE `telegram_cards` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`track_id` integer NOT NULL,
	`direction` text NOT NULL,
	`chat_id` text NOT NULL,
	`message_id` integer,
	`has_audio` integer DEFAULT false NOT NULL,
	`state` text DEFAULT 'queued' NOT NULL,
	`shown_text` text,
	`shown_markup` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`track_id`) REFERENCES `tracks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `telegram_cards_track_direction_idx` ON `telegram_cards` (`track_id`,`direction`);--> statement-breakpoint
CREATE TABLE `telegram_updates_lease` (
	`bot_id` text PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`lease_until` integer NOT NULL,
	`next_offset` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `telegram_outbox` ADD `method` text DEFAULT 'sendMessage' NOT NULL;--> statement-breakpoint
ALTER TABLE `telegram_outbox` ADD `card_id` integer;