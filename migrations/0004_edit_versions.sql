ALTER TABLE `games` ADD `version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `challenges` ADD `version` integer DEFAULT 1 NOT NULL;