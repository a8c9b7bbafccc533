ALTER TABLE `tracks` ADD `lease_owner` text;--> statement-breakpoint
ALTER TABLE `tracks` ADD `lease_until` integer;