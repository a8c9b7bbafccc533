ALTER TABLE `telegram_outbox` ADD `attempted_at` integer;--> statement-breakpoint
CREATE INDEX `telegram_outbox_chat_attempted_idx` ON `telegram_outbox` (`chat_id`,`attempted_at`);