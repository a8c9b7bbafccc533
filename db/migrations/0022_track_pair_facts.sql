CREATE TABLE `track_pair_facts` (
	`track_id` integer NOT NULL,
	`direction` text NOT NULL,
	`upload_date` integer NOT NULL,
	`listen_ms` integer,
	`listen_by` integer,
	`decide_ms` integer,
	`decide_by` integer,
	PRIMARY KEY(`track_id`, `direction`),
	FOREIGN KEY (`track_id`) REFERENCES `tracks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `track_pair_facts_groups_idx` ON `track_pair_facts` (`direction`,`listen_by`,`decide_by`,`upload_date`,`listen_ms`,`decide_ms`);--> statement-breakpoint
CREATE INDEX `track_pair_facts_direction_upload_idx` ON `track_pair_facts` (`direction`,`upload_date`,`listen_ms`,`decide_ms`);--> statement-breakpoint
CREATE INDEX `track_pair_facts_listen_by_upload_idx` ON `track_pair_facts` (`listen_by`,`upload_date`,`listen_ms`,`direction`);--> statement-breakpoint
CREATE INDEX `track_pair_facts_decide_by_upload_idx` ON `track_pair_facts` (`decide_by`,`upload_date`,`decide_ms`,`direction`);--> statement-breakpoint
CREATE INDEX `track_pair_facts_direction_listen_idx` ON `track_pair_facts` (`direction`,`listen_ms`,`upload_date`);--> statement-breakpoint
CREATE INDEX `track_pair_facts_direction_decide_idx` ON `track_pair_facts` (`direction`,`decide_ms`,`upload_date`);--> statement-breakpoint
CREATE INDEX `track_pair_facts_listen_by_idx` ON `track_pair_facts` (`listen_by`,`listen_ms`,`upload_date`,`direction`);--> statement-breakpoint
CREATE INDEX `track_pair_facts_decide_by_idx` ON `track_pair_facts` (`decide_by`,`decide_ms`,`upload_date`,`direction`);