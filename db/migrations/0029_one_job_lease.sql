ALTER TABLE `job_leases` ADD `cursor` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
INSERT INTO `job_leases` (`name`, `owner`, `until`, `cursor`) SELECT 'telegram-updates:' || `bot_id`, `holder`, `lease_until`, `next_offset` FROM `telegram_updates_lease` WHERE true ON CONFLICT (`name`) DO NOTHING;--> statement-breakpoint
DROP TABLE `telegram_updates_lease`;
