ALTER TABLE `logs` ADD `msg_key` text;--> statement-breakpoint
ALTER TABLE `logs` ADD `msg_params` text;