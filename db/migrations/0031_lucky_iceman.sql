ALTER TABLE `upload_sessions` ADD `material_kind` text;--> statement-breakpoint
ALTER TABLE `upload_sessions` ADD `release_id` integer;