CREATE TABLE `fingerprint_segments` (
	`hash` integer NOT NULL,
	`track_id` integer NOT NULL,
	`position` integer NOT NULL,
	FOREIGN KEY (`track_id`) REFERENCES `tracks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `fingerprint_segments_hash_idx` ON `fingerprint_segments` (`hash`,`track_id`,`position`);--> statement-breakpoint
CREATE INDEX `fingerprint_segments_track_idx` ON `fingerprint_segments` (`track_id`);--> statement-breakpoint
CREATE TABLE `track_fingerprints` (
	`track_id` integer PRIMARY KEY NOT NULL,
	`codes` blob NOT NULL,
	`version` integer NOT NULL,
	FOREIGN KEY (`track_id`) REFERENCES `tracks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `tracks` ADD `same_audio_as` integer;