-- Keeps `track_counts` and `user_track_counts` (docs/decisions/0190) in the same transaction as
-- every insert, update and delete of a track, then fills them from the tracks already there.
-- A migration that rebuilds `tracks` (drop and rename) drops these triggers: it must create them
-- again (server/admin/dashboard-counts.test.ts checks that they exist after all migrations).
CREATE TRIGGER `tracks_counts_insert` AFTER INSERT ON `tracks` BEGIN
  INSERT INTO `track_counts` (`directions`, `review`, `downloaded`, `failed`, `n`)
    VALUES (NEW.`directions`, NEW.`review`, NEW.`downloaded`, NEW.`status` = 'failed', 1)
    ON CONFLICT (`directions`, `review`, `downloaded`, `failed`) DO UPDATE SET `n` = `n` + 1;
  INSERT INTO `user_track_counts` (`user_id`, `n`)
    SELECT NEW.`user_id`, 1 WHERE NEW.`user_id` IS NOT NULL
    ON CONFLICT (`user_id`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `tracks_counts_delete` AFTER DELETE ON `tracks` BEGIN
  UPDATE `track_counts` SET `n` = `n` - 1
    WHERE `directions` = OLD.`directions` AND `review` = OLD.`review`
      AND `downloaded` = OLD.`downloaded` AND `failed` = (OLD.`status` = 'failed');
  DELETE FROM `track_counts`
    WHERE `directions` = OLD.`directions` AND `review` = OLD.`review`
      AND `downloaded` = OLD.`downloaded` AND `failed` = (OLD.`status` = 'failed') AND `n` <= 0;
  UPDATE `user_track_counts` SET `n` = `n` - 1 WHERE `user_id` = OLD.`user_id`;
  DELETE FROM `user_track_counts` WHERE `user_id` = OLD.`user_id` AND `n` <= 0;
END;
--> statement-breakpoint
CREATE TRIGGER `tracks_counts_update` AFTER UPDATE OF `directions`, `review`, `downloaded`, `status` ON `tracks`
  WHEN OLD.`directions` IS NOT NEW.`directions` OR OLD.`review` IS NOT NEW.`review`
    OR OLD.`downloaded` IS NOT NEW.`downloaded` OR (OLD.`status` = 'failed') IS NOT (NEW.`status` = 'failed')
BEGIN
  UPDATE `track_counts` SET `n` = `n` - 1
    WHERE `directions` = OLD.`directions` AND `review` = OLD.`review`
      AND `downloaded` = OLD.`downloaded` AND `failed` = (OLD.`status` = 'failed');
  DELETE FROM `track_counts`
    WHERE `directions` = OLD.`directions` AND `review` = OLD.`review`
      AND `downloaded` = OLD.`downloaded` AND `failed` = (OLD.`status` = 'failed') AND `n` <= 0;
  INSERT INTO `track_counts` (`directions`, `review`, `downloaded`, `failed`, `n`)
    VALUES (NEW.`directions`, NEW.`review`, NEW.`downloaded`, NEW.`status` = 'failed', 1)
    ON CONFLICT (`directions`, `review`, `downloaded`, `failed`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `tracks_user_counts_update` AFTER UPDATE OF `user_id` ON `tracks`
  WHEN OLD.`user_id` IS NOT NEW.`user_id`
BEGIN
  UPDATE `user_track_counts` SET `n` = `n` - 1 WHERE `user_id` = OLD.`user_id`;
  DELETE FROM `user_track_counts` WHERE `user_id` = OLD.`user_id` AND `n` <= 0;
  INSERT INTO `user_track_counts` (`user_id`, `n`)
    SELECT NEW.`user_id`, 1 WHERE NEW.`user_id` IS NOT NULL
    ON CONFLICT (`user_id`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
INSERT INTO `track_counts` (`directions`, `review`, `downloaded`, `failed`, `n`)
  SELECT `directions`, `review`, `downloaded`, `status` = 'failed', count(*) FROM `tracks`
  GROUP BY `directions`, `review`, `downloaded`, `status` = 'failed';
--> statement-breakpoint
INSERT INTO `user_track_counts` (`user_id`, `n`)
  SELECT `user_id`, count(*) FROM `tracks` WHERE `user_id` IS NOT NULL GROUP BY `user_id`;
