CREATE TABLE `oauth_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`vk_state` text,
	`vk_verifier` text,
	`browser_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `oauth_sessions_expires_at_idx` ON `oauth_sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `telegram_auth_uses` (
	`hash` text PRIMARY KEY NOT NULL,
	`telegram_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `telegram_auth_uses_expires_at_idx` ON `telegram_auth_uses` (`expires_at`);