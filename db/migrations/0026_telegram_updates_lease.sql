CREATE TABLE `telegram_updates_lease` (
	`bot_id` text PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`lease_until` integer NOT NULL,
	`next_offset` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL
);
