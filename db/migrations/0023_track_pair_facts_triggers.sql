-- Keeps `track_pair_facts` (docs/decisions/0237) in the same transaction as every write of the
-- decision history and every change of a track's directions, status or upload date: each trigger
-- recomputes the touched pairs from their history through the view `track_pair_facts_source`
-- (the definitions of docs/decisions/0235), then the table is filled from the tracks and history
-- already there. A migration that rebuilds `tracks` or `track_decision_history` (drop and rename)
-- drops these triggers: it must create them again (server/tracks/response-figures.test.ts checks
-- that the facts follow every kind of write).
CREATE VIEW `track_pair_facts_source` AS
SELECT t.`id` AS `track_id`, d.`value` AS `direction`, t.`upload_date` AS `upload_date`,
  (SELECT h.`decided_at` FROM `track_decision_history` h
    WHERE h.`track_id` = t.`id` AND h.`direction` = d.`value` AND h.`undoes` IS NULL AND h.`to_status` <> 'new'
      AND (h.`call_id` IS NULL OR NOT EXISTS (SELECT 1 FROM `track_decision_history` u
        WHERE u.`track_id` = h.`track_id` AND u.`direction` = h.`direction` AND u.`undoes` = h.`call_id`))
    ORDER BY h.`revision` LIMIT 1) - t.`upload_date` AS `listen_ms`,
  (SELECT h.`decided_by` FROM `track_decision_history` h
    WHERE h.`track_id` = t.`id` AND h.`direction` = d.`value` AND h.`undoes` IS NULL AND h.`to_status` <> 'new'
      AND (h.`call_id` IS NULL OR NOT EXISTS (SELECT 1 FROM `track_decision_history` u
        WHERE u.`track_id` = h.`track_id` AND u.`direction` = h.`direction` AND u.`undoes` = h.`call_id`))
    ORDER BY h.`revision` LIMIT 1) AS `listen_by`,
  (SELECT h.`decided_at` FROM `track_decision_history` h
    WHERE h.`track_id` = t.`id` AND h.`direction` = d.`value` AND h.`undoes` IS NULL AND h.`to_status` IN ('accepted', 'declined')
      AND (h.`call_id` IS NULL OR NOT EXISTS (SELECT 1 FROM `track_decision_history` u
        WHERE u.`track_id` = h.`track_id` AND u.`direction` = h.`direction` AND u.`undoes` = h.`call_id`))
    ORDER BY h.`revision` LIMIT 1) - t.`upload_date` AS `decide_ms`,
  (SELECT h.`decided_by` FROM `track_decision_history` h
    WHERE h.`track_id` = t.`id` AND h.`direction` = d.`value` AND h.`undoes` IS NULL AND h.`to_status` IN ('accepted', 'declined')
      AND (h.`call_id` IS NULL OR NOT EXISTS (SELECT 1 FROM `track_decision_history` u
        WHERE u.`track_id` = h.`track_id` AND u.`direction` = h.`direction` AND u.`undoes` = h.`call_id`))
    ORDER BY h.`revision` LIMIT 1) AS `decide_by`
FROM `tracks` t, json_each('["' || replace(t.`directions`, ',', '","') || '"]') d
WHERE t.`status` <> 'failed' AND d.`value` <> '';
--> statement-breakpoint
CREATE TRIGGER `track_pair_facts_history_insert` AFTER INSERT ON `track_decision_history` BEGIN
  INSERT OR REPLACE INTO `track_pair_facts` SELECT * FROM `track_pair_facts_source` WHERE `track_id` = NEW.`track_id` AND `direction` = NEW.`direction`;
END;
--> statement-breakpoint
CREATE TRIGGER `track_pair_facts_history_update` AFTER UPDATE ON `track_decision_history` BEGIN
  DELETE FROM `track_pair_facts` WHERE `track_id` = OLD.`track_id` AND `direction` = OLD.`direction`;
  INSERT OR REPLACE INTO `track_pair_facts` SELECT * FROM `track_pair_facts_source` WHERE `track_id` = OLD.`track_id` AND `direction` = OLD.`direction`;
  INSERT OR REPLACE INTO `track_pair_facts` SELECT * FROM `track_pair_facts_source` WHERE `track_id` = NEW.`track_id` AND `direction` = NEW.`direction`;
END;
--> statement-breakpoint
CREATE TRIGGER `track_pair_facts_history_delete` AFTER DELETE ON `track_decision_history` BEGIN
  DELETE FROM `track_pair_facts` WHERE `track_id` = OLD.`track_id` AND `direction` = OLD.`direction`;
  INSERT OR REPLACE INTO `track_pair_facts` SELECT * FROM `track_pair_facts_source` WHERE `track_id` = OLD.`track_id` AND `direction` = OLD.`direction`;
END;
--> statement-breakpoint
CREATE TRIGGER `track_pair_facts_track_insert` AFTER INSERT ON `tracks` BEGIN
  INSERT OR REPLACE INTO `track_pair_facts` SELECT * FROM `track_pair_facts_source` WHERE `track_id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `track_pair_facts_track_update` AFTER UPDATE OF `directions`, `status`, `upload_date` ON `tracks`
  WHEN OLD.`directions` IS NOT NEW.`directions` OR (OLD.`status` = 'failed') IS NOT (NEW.`status` = 'failed')
    OR OLD.`upload_date` IS NOT NEW.`upload_date`
BEGIN
  DELETE FROM `track_pair_facts` WHERE `track_id` = NEW.`id`;
  INSERT OR REPLACE INTO `track_pair_facts` SELECT * FROM `track_pair_facts_source` WHERE `track_id` = NEW.`id`;
END;
--> statement-breakpoint
-- The backfill: every pair of the tracks already there.
INSERT OR REPLACE INTO `track_pair_facts` SELECT * FROM `track_pair_facts_source`;
