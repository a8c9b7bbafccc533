CREATE TABLE `faqs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`question` text NOT NULL,
	`answer` text NOT NULL,
	`order` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `faqs_order_idx` ON `faqs` (`order`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`refresh_jti` text NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	`user_agent` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_id_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `slider_tiles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tile_type` text NOT NULL,
	`image_filename` text,
	`redirect_url` text,
	`track_url` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `tracks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`guest_username` text,
	`filename` text NOT NULL,
	`directions` text DEFAULT '' NOT NULL,
	`upload_date` integer NOT NULL,
	`downloaded` integer DEFAULT false NOT NULL,
	`storage_key` text,
	`size` integer,
	`duration_ms` integer,
	`bitrate` integer,
	`sample_rate` integer,
	`channels` integer,
	`id3_artist` text,
	`id3_title` text,
	`checksum` text,
	`status` text DEFAULT 'processing' NOT NULL,
	`error` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`processed_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `tracks_user_id_idx` ON `tracks` (`user_id`);--> statement-breakpoint
CREATE INDEX `tracks_upload_date_idx` ON `tracks` (`upload_date`);--> statement-breakpoint
CREATE INDEX `tracks_downloaded_idx` ON `tracks` (`downloaded`);--> statement-breakpoint
CREATE INDEX `tracks_status_idx` ON `tracks` (`status`);--> statement-breakpoint
CREATE INDEX `tracks_checksum_idx` ON `tracks` (`checksum`);--> statement-breakpoint
CREATE INDEX `tracks_filename_idx` ON `tracks` (`filename`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`email` text,
	`first_name` text,
	`last_name` text,
	`avatar` text,
	`city` text,
	`birth_date` text,
	`bio` text,
	`favorite_dnb_genre` text,
	`vk_id` text,
	`telegram_id` text,
	`telegram_hash` text,
	`phone_number` text,
	`pending_vk_link_phone` text,
	`is_admin` integer DEFAULT false NOT NULL,
	`is_moderator` integer DEFAULT false NOT NULL,
	`moderator_categories` text DEFAULT '' NOT NULL,
	`is_banned` integer DEFAULT false NOT NULL,
	`ban_reason` text,
	`last_login_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (`username`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_vk_id_unique` ON `users` (`vk_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_telegram_id_unique` ON `users` (`telegram_id`);--> statement-breakpoint
CREATE INDEX `users_is_banned_idx` ON `users` (`is_banned`);--> statement-breakpoint
CREATE INDEX `users_created_at_idx` ON `users` (`created_at`);