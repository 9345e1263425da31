ALTER TABLE `attachments` ADD `name` text;--> statement-breakpoint
-- Attachments made before keep the name they were served under: their file's.
UPDATE `attachments` SET `name` = (SELECT `name` FROM `files` WHERE `files`.`hash` = `attachments`.`file_hash`) WHERE `file_hash` IS NOT NULL;
