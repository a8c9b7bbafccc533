ALTER TABLE `direction_intake` ADD `catalogue_prefix` text;--> statement-breakpoint
ALTER TABLE `direction_intake` ADD `catalogue_next` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `direction_intake` ADD `release_extended` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `direction_intake` ADD `release_instrumental` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `releases` ADD `request_told_at` integer;--> statement-breakpoint
ALTER TABLE `releases` ADD `reminders_sent` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `releases` ADD `reminded_at` integer;--> statement-breakpoint
ALTER TABLE `upload_sessions` ADD `material_kind` text;--> statement-breakpoint
ALTER TABLE `upload_sessions` ADD `release_id` integer;