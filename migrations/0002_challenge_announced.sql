ALTER TABLE `challenges` ADD `announced` integer DEFAULT false NOT NULL;--> statement-breakpoint
-- Challenges already announced before this column: the NewChallenge notice named them by title.
UPDATE `challenges` SET `announced` = 1 WHERE EXISTS (SELECT 1 FROM `game_notices` n WHERE n.`game_id` = `challenges`.`game_id` AND n.`type` = 'NewChallenge' AND n.`values_json` = json_array(`challenges`.`title`));
