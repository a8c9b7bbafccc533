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
DROP INDEX `telegram_outbox_key_unique`;--> statement-breakpoint
ALTER TABLE `telegram_outbox` ADD `channel` text DEFAULT 'telegram' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `telegram_outbox_key_channel_unique` ON `telegram_outbox` (`key`,`channel`);--> statement-breakpoint
CREATE INDEX `telegram_outbox_channel_attempted_idx` ON `telegram_outbox` (`channel`,`attempted_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `allows_write_to_pm` integer;