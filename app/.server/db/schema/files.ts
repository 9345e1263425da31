import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { FILE_TYPES } from "~/core/enums";

/**
 * A content-addressed blob kept in R2 at `uploads/{hash[0..2]}/{hash[2..4]}/{hash}`. `referenceCount` counts
 * the rows and settings that use it (attachments, avatars, posters, logos, writeups); the blob is removed
 * when it reaches 0.
 */
export const files = sqliteTable(
  "files",
  {
    /** SHA-256, 64 lower-case hex. */
    hash: text("hash").primaryKey(),
    /** The name of its latest named upload (POST /api/assets); what the admin file list shows. */
    name: text("name").notNull(),
    size: integer("size").notNull(),
    contentType: text("content_type").notNull().default("application/octet-stream"),
    referenceCount: integer("reference_count").notNull().default(1),
    uploadTime: integer("upload_time").notNull(),
  },
  (t) => [index("files_upload_time_idx").on(t.uploadTime)],
);

/**
 * An attachment of a challenge (static types) or of a flag (DynamicAttachment): nothing, a local file (by
 * hash) or a remote URL. A referenced file cannot be deleted (no-action foreign key).
 */
export const attachments = sqliteTable(
  "attachments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    type: text("type", { enum: FILE_TYPES }).notNull(),
    fileHash: text("file_hash").references(() => files.hash),
    remoteUrl: text("remote_url"),
    /**
     * The download name of a Local file, taken from the file when attached: the same bytes uploaded later
     * under another name (or for another challenge) leave it as it is. Null for Remote and None.
     */
    name: text("name"),
    /** Bytes; the file's size for Local, null when unknown (Remote, None). */
    fileSize: integer("file_size"),
  },
  (t) => [index("attachments_file_hash_idx").on(t.fileHash)],
);

export type FileRow = typeof files.$inferSelect;
export type NewFileRow = typeof files.$inferInsert;
export type Attachment = typeof attachments.$inferSelect;
export type NewAttachment = typeof attachments.$inferInsert;
