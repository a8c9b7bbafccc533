ALTER TABLE `decline_templates` ADD `outcome` text DEFAULT 'declined' NOT NULL;--> statement-breakpoint
ALTER TABLE `track_decision_history` ADD `call_id` text;--> statement-breakpoint
ALTER TABLE `track_decision_history` ADD `undoes` text;--> statement-breakpoint
ALTER TABLE `track_decisions` ADD `shown_status` text;--> statement-breakpoint
ALTER TABLE `track_decisions` ADD `shown_message` text;--> statement-breakpoint
CREATE INDEX `tracks_upload_review_idx` ON `tracks` (`upload_date`,`status`,`directions`,`review`);--> statement-breakpoint
-- Ready-made messages for accepting and shortlisting (docs/decisions/0224): written by the migration,
-- so existing databases get them as new ones do, exactly once (a migration never runs twice).
INSERT INTO `decline_templates` (`title`, `text`, `outcome`) VALUES
  ('Принят', 'Привет, {artist}! Трек «{title}» принят в направление «{direction}». Скоро напишем о деталях релиза.', 'accepted'),
  ('Принят, нужен финальный мастер', '{artist}, трек «{title}» принят в направление «{direction}». Пришлите, пожалуйста, финальный мастер в WAV 24 бит без лимитера на мастер-шине.', 'accepted'),
  ('В шорт-листе', 'Привет, {artist}! Трек «{title}» попал в шорт-лист направления «{direction}». Окончательное решение сообщим позже.', 'shortlisted'),
  ('Шорт-лист до сборки релиза', 'Трек «{title}» отложен в шорт-лист направления «{direction}»: мы собираем релиз и вернёмся с ответом, когда подборка сложится.', 'shortlisted');
