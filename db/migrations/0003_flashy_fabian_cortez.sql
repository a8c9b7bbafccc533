CREATE TABLE `track_analysis` (
	`track_id` integer PRIMARY KEY NOT NULL,
	`duration_s` real,
	`bitrate_kbps` integer,
	`bitrate_mode` text,
	`sample_rate_hz` integer,
	`channels` integer,
	`loudness_lufs` real,
	`true_peak_dbtp` real,
	`clipped_samples` integer,
	`bpm` real,
	`drop_s` real,
	`warnings` text DEFAULT '' NOT NULL,
	`peaks` text,
	`error` text,
	`analysed_at` integer NOT NULL,
	FOREIGN KEY (`track_id`) REFERENCES `tracks`(`id`) ON UPDATE no action ON DELETE cascade
);
