DROP INDEX `tracks_directions_downloaded_idx`;--> statement-breakpoint
DROP INDEX `tracks_directions_review_idx`;