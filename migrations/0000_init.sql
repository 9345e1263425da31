CREATE TABLE `config` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sessions` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE INDEX `sessions_expires_idx` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`user_name` text NOT NULL,
	`user_name_key` text NOT NULL,
	`email` text NOT NULL,
	`email_key` text NOT NULL,
	`email_confirmed` integer DEFAULT false NOT NULL,
	`password_hash` text NOT NULL,
	`security_stamp` text NOT NULL,
	`role` text DEFAULT 'User' NOT NULL,
	`real_name` text DEFAULT '' NOT NULL,
	`std_number` text DEFAULT '' NOT NULL,
	`phone` text DEFAULT '' NOT NULL,
	`bio` text DEFAULT '' NOT NULL,
	`avatar_hash` text,
	`language` text DEFAULT 'en-US' NOT NULL,
	`register_time` integer NOT NULL,
	`last_visited_time` integer DEFAULT 0 NOT NULL,
	`last_visited_ip` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_user_name_key_unique` ON `users` (`user_name_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_key_unique` ON `users` (`email_key`);--> statement-breakpoint
CREATE INDEX `users_role_idx` ON `users` (`role`);--> statement-breakpoint
CREATE INDEX `users_register_time_idx` ON `users` (`register_time`);--> statement-breakpoint
CREATE TABLE `team_members` (
	`team_id` integer NOT NULL,
	`user_id` text NOT NULL,
	PRIMARY KEY(`team_id`, `user_id`),
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `team_members_user_idx` ON `team_members` (`user_id`);--> statement-breakpoint
CREATE TABLE `teams` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`bio` text DEFAULT '' NOT NULL,
	`avatar_hash` text,
	`captain_id` text NOT NULL,
	`locked` integer DEFAULT false NOT NULL,
	`invite_token` text NOT NULL,
	FOREIGN KEY (`captain_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `teams_captain_unique` ON `teams` (`captain_id`);--> statement-breakpoint
CREATE INDEX `teams_name_idx` ON `teams` (`name`);--> statement-breakpoint
CREATE TABLE `attachments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` text NOT NULL,
	`file_hash` text,
	`remote_url` text,
	`file_size` integer,
	FOREIGN KEY (`file_hash`) REFERENCES `files`(`hash`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `attachments_file_hash_idx` ON `attachments` (`file_hash`);--> statement-breakpoint
CREATE TABLE `files` (
	`hash` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`size` integer NOT NULL,
	`content_type` text DEFAULT 'application/octet-stream' NOT NULL,
	`reference_count` integer DEFAULT 1 NOT NULL,
	`upload_time` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `files_upload_time_idx` ON `files` (`upload_time`);--> statement-breakpoint
CREATE TABLE `divisions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`game_id` integer NOT NULL,
	`name` text NOT NULL,
	`invite_code` text DEFAULT '' NOT NULL,
	`default_permissions` integer DEFAULT 2147483647 NOT NULL,
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `divisions_game_name_unique` ON `divisions` (`game_id`,`name`);--> statement-breakpoint
CREATE TABLE `games` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`summary` text DEFAULT '' NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`poster_hash` text,
	`hidden` integer DEFAULT false NOT NULL,
	`start_time` integer NOT NULL,
	`end_time` integer NOT NULL,
	`invite_code` text DEFAULT '' NOT NULL,
	`team_member_count_limit` integer DEFAULT 0 NOT NULL,
	`container_count_limit` integer DEFAULT 3 NOT NULL,
	`accept_without_review` integer DEFAULT false NOT NULL,
	`practice_mode` integer DEFAULT true NOT NULL,
	`writeup_required` integer DEFAULT false NOT NULL,
	`writeup_deadline` integer NOT NULL,
	`writeup_note` text DEFAULT '' NOT NULL,
	`blood_bonus` integer DEFAULT 52459530 NOT NULL,
	`public_key` text NOT NULL,
	`private_key` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `games_hidden_start_idx` ON `games` (`hidden`,`start_time`);--> statement-breakpoint
CREATE INDEX `games_start_idx` ON `games` (`start_time`);--> statement-breakpoint
CREATE TABLE `challenges` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`game_id` integer NOT NULL,
	`title` text NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`category` text DEFAULT 'Misc' NOT NULL,
	`type` text NOT NULL,
	`hints` text DEFAULT '[]' NOT NULL,
	`flag_template` text,
	`is_enabled` integer DEFAULT false NOT NULL,
	`original_score` integer DEFAULT 1000 NOT NULL,
	`min_score_rate` real DEFAULT 0.25 NOT NULL,
	`difficulty` real DEFAULT 5 NOT NULL,
	`container_image` text,
	`memory_limit` integer DEFAULT 64 NOT NULL,
	`cpu_count` integer DEFAULT 1 NOT NULL,
	`storage_limit` integer DEFAULT 256 NOT NULL,
	`expose_port` integer DEFAULT 80 NOT NULL,
	`network_mode` text DEFAULT 'Open' NOT NULL,
	`enable_traffic_capture` integer DEFAULT false NOT NULL,
	`disable_blood_bonus` integer DEFAULT false NOT NULL,
	`attachment_id` integer,
	`file_name` text DEFAULT 'attachment' NOT NULL,
	`deadline` integer,
	`submission_limit` integer DEFAULT 0 NOT NULL,
	`accepted_count` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`attachment_id`) REFERENCES `attachments`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `challenges_game_enabled_idx` ON `challenges` (`game_id`,`is_enabled`);--> statement-breakpoint
CREATE TABLE `division_challenge_configs` (
	`division_id` integer NOT NULL,
	`challenge_id` integer NOT NULL,
	`permissions` integer NOT NULL,
	PRIMARY KEY(`division_id`, `challenge_id`),
	FOREIGN KEY (`division_id`) REFERENCES `divisions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`challenge_id`) REFERENCES `challenges`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `division_challenge_configs_challenge_idx` ON `division_challenge_configs` (`challenge_id`);--> statement-breakpoint
CREATE TABLE `flags` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`challenge_id` integer NOT NULL,
	`flag` text NOT NULL,
	`attachment_id` integer,
	`occupied` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`challenge_id`) REFERENCES `challenges`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`attachment_id`) REFERENCES `attachments`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `flags_challenge_flag_unique` ON `flags` (`challenge_id`,`flag`);--> statement-breakpoint
CREATE INDEX `flags_challenge_occupied_idx` ON `flags` (`challenge_id`,`occupied`);--> statement-breakpoint
CREATE TABLE `participation_members` (
	`participation_id` integer NOT NULL,
	`game_id` integer NOT NULL,
	`user_id` text NOT NULL,
	PRIMARY KEY(`participation_id`, `user_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`participation_id`,`game_id`) REFERENCES `participations`(`id`,`game_id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `participation_members_game_user_unique` ON `participation_members` (`game_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `participation_members_user_idx` ON `participation_members` (`user_id`);--> statement-breakpoint
CREATE TABLE `participations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`game_id` integer NOT NULL,
	`team_id` integer NOT NULL,
	`division_id` integer,
	`status` text DEFAULT 'Pending' NOT NULL,
	`token` text NOT NULL,
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`division_id`) REFERENCES `divisions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `participations_game_team_unique` ON `participations` (`game_id`,`team_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `participations_id_game_unique` ON `participations` (`id`,`game_id`);--> statement-breakpoint
CREATE INDEX `participations_game_status_idx` ON `participations` (`game_id`,`status`);--> statement-breakpoint
CREATE INDEX `participations_team_idx` ON `participations` (`team_id`);--> statement-breakpoint
CREATE INDEX `participations_division_idx` ON `participations` (`division_id`);--> statement-breakpoint
CREATE TABLE `game_instances` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`participation_id` integer NOT NULL,
	`challenge_id` integer NOT NULL,
	`flag_id` integer,
	`flag` text,
	`last_container_operation` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`participation_id`) REFERENCES `participations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`challenge_id`) REFERENCES `challenges`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`flag_id`) REFERENCES `flags`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `game_instances_participation_challenge_unique` ON `game_instances` (`participation_id`,`challenge_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `game_instances_flag_unique` ON `game_instances` (`flag_id`);--> statement-breakpoint
CREATE INDEX `game_instances_challenge_flag_idx` ON `game_instances` (`challenge_id`,`flag`);--> statement-breakpoint
CREATE TABLE `containers` (
	`id` text PRIMARY KEY NOT NULL,
	`container_id` text,
	`image` text NOT NULL,
	`status` text DEFAULT 'Pending' NOT NULL,
	`ip` text DEFAULT '' NOT NULL,
	`port` integer DEFAULT 0 NOT NULL,
	`public_ip` text,
	`public_port` integer,
	`entry` text DEFAULT '' NOT NULL,
	`started_at` integer NOT NULL,
	`expect_stop_at` integer NOT NULL,
	`agent_id` text,
	`challenge_id` integer NOT NULL,
	`instance_id` integer,
	`participation_id` integer,
	`user_id` text,
	`capture_enabled` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`challenge_id`) REFERENCES `challenges`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`instance_id`) REFERENCES `game_instances`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`participation_id`) REFERENCES `participations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `containers_status_expect_stop_idx` ON `containers` (`status`,`expect_stop_at`);--> statement-breakpoint
CREATE INDEX `containers_participation_status_idx` ON `containers` (`participation_id`,`status`);--> statement-breakpoint
CREATE INDEX `containers_challenge_idx` ON `containers` (`challenge_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `containers_live_instance_unique` ON `containers` (`instance_id`) WHERE status <> 'Destroyed' AND instance_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `containers_live_test_unique` ON `containers` (`challenge_id`) WHERE status <> 'Destroyed' AND instance_id IS NULL;--> statement-breakpoint
CREATE TABLE `traffic_captures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`challenge_id` integer NOT NULL,
	`participation_id` integer NOT NULL,
	`container_id` text,
	`r2_key` text NOT NULL,
	`file_name` text NOT NULL,
	`size` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`challenge_id`) REFERENCES `challenges`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`participation_id`) REFERENCES `participations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`container_id`) REFERENCES `containers`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `traffic_captures_r2_key_unique` ON `traffic_captures` (`r2_key`);--> statement-breakpoint
CREATE INDEX `traffic_captures_challenge_participation_idx` ON `traffic_captures` (`challenge_id`,`participation_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `cheat_infos` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`game_id` integer NOT NULL,
	`owned_participation_id` integer NOT NULL,
	`submit_participation_id` integer NOT NULL,
	`submission_id` integer NOT NULL,
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`owned_participation_id`) REFERENCES `participations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`submit_participation_id`) REFERENCES `participations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cheat_infos_submission_unique` ON `cheat_infos` (`submission_id`);--> statement-breakpoint
CREATE INDEX `cheat_infos_game_idx` ON `cheat_infos` (`game_id`);--> statement-breakpoint
CREATE INDEX `cheat_infos_owned_idx` ON `cheat_infos` (`owned_participation_id`);--> statement-breakpoint
CREATE INDEX `cheat_infos_submit_idx` ON `cheat_infos` (`submit_participation_id`);--> statement-breakpoint
CREATE TABLE `first_solves` (
	`participation_id` integer NOT NULL,
	`challenge_id` integer NOT NULL,
	`game_id` integer NOT NULL,
	`submission_id` integer NOT NULL,
	`user_id` text,
	`submit_time` integer NOT NULL,
	`type` text DEFAULT 'Normal' NOT NULL,
	PRIMARY KEY(`participation_id`, `challenge_id`),
	FOREIGN KEY (`participation_id`) REFERENCES `participations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`challenge_id`) REFERENCES `challenges`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `first_solves_submission_unique` ON `first_solves` (`submission_id`);--> statement-breakpoint
CREATE INDEX `first_solves_game_time_idx` ON `first_solves` (`game_id`,`submit_time`);--> statement-breakpoint
CREATE INDEX `first_solves_challenge_time_idx` ON `first_solves` (`challenge_id`,`submit_time`);--> statement-breakpoint
CREATE TABLE `submissions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`game_id` integer NOT NULL,
	`challenge_id` integer NOT NULL,
	`participation_id` integer NOT NULL,
	`user_id` text,
	`answer` text NOT NULL,
	`status` text DEFAULT 'FlagSubmitted' NOT NULL,
	`submit_time` integer NOT NULL,
	`ip` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`challenge_id`) REFERENCES `challenges`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`participation_id`) REFERENCES `participations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `submissions_game_time_idx` ON `submissions` (`game_id`,`submit_time`);--> statement-breakpoint
CREATE INDEX `submissions_game_status_id_idx` ON `submissions` (`game_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `submissions_participation_challenge_idx` ON `submissions` (`participation_id`,`challenge_id`);--> statement-breakpoint
CREATE INDEX `submissions_challenge_idx` ON `submissions` (`challenge_id`);--> statement-breakpoint
CREATE INDEX `submissions_user_idx` ON `submissions` (`user_id`);--> statement-breakpoint
CREATE TABLE `game_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`game_id` integer NOT NULL,
	`type` text NOT NULL,
	`values_json` text DEFAULT '[]' NOT NULL,
	`publish_time` integer NOT NULL,
	`user_id` text,
	`team_id` integer,
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `game_events_game_time_idx` ON `game_events` (`game_id`,`publish_time`);--> statement-breakpoint
CREATE INDEX `game_events_game_type_time_idx` ON `game_events` (`game_id`,`type`,`publish_time`);--> statement-breakpoint
CREATE TABLE `game_notices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`game_id` integer NOT NULL,
	`type` text NOT NULL,
	`values_json` text DEFAULT '[]' NOT NULL,
	`publish_time` integer NOT NULL,
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `game_notices_game_time_idx` ON `game_notices` (`game_id`,`publish_time`);--> statement-breakpoint
CREATE TABLE `posts` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`summary` text DEFAULT '' NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`tags` text DEFAULT '[]' NOT NULL,
	`is_pinned` integer DEFAULT false NOT NULL,
	`author_id` text,
	`update_time` integer NOT NULL,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `posts_pinned_time_idx` ON `posts` (`is_pinned`,`update_time`);--> statement-breakpoint
CREATE TABLE `writeups` (
	`participation_id` integer PRIMARY KEY NOT NULL,
	`file_hash` text NOT NULL,
	`file_name` text NOT NULL,
	`size` integer NOT NULL,
	`upload_time` integer NOT NULL,
	FOREIGN KEY (`participation_id`) REFERENCES `participations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`file_hash`) REFERENCES `files`(`hash`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `writeups_file_hash_idx` ON `writeups` (`file_hash`);--> statement-breakpoint
CREATE TABLE `logs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`time` integer NOT NULL,
	`level` text NOT NULL,
	`logger` text DEFAULT '' NOT NULL,
	`user_name` text,
	`ip` text,
	`message` text NOT NULL,
	`exception` text,
	`status` text
);
--> statement-breakpoint
CREATE INDEX `logs_time_idx` ON `logs` (`time`);--> statement-breakpoint
CREATE INDEX `logs_level_time_idx` ON `logs` (`level`,`time`);