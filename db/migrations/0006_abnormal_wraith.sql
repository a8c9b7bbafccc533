ALTER TABLE `tracks` ADD `review` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `tracks_directions_review_idx` ON `tracks` (`directions`,`review`,`status`);