ALTER TABLE `track_analysis` ADD `musical_key` text;--> statement-breakpoint
ALTER TABLE `track_analysis` ADD `camelot` text;--> statement-breakpoint
ALTER TABLE `track_analysis` ADD `key_confidence` real;--> statement-breakpoint
ALTER TABLE `track_analysis` ADD `analysis_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `track_analysis` ADD `reanalysis_owner` text;--> statement-breakpoint
ALTER TABLE `track_analysis` ADD `reanalysis_until` integer;--> statement-breakpoint
ALTER TABLE `track_analysis` ADD `reanalysis_attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `track_analysis` ADD `reanalysis_version` integer;--> statement-breakpoint
ALTER TABLE `track_analysis` ADD `reanalysis_error` text;