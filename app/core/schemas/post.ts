import { z } from "zod";
import { isOneLine, ITEM_ONE_LINE, ONE_LINE } from "./text";

/** Field limits of posts (api.md §3: title 1–50); the others are Flagstaff's own bounds. */
export const POST_TITLE_MAX = 50;
export const POST_SUMMARY_MAX = 1024;
export const POST_CONTENT_MAX = 65536;
export const POST_TAGS_MAX = 16;
export const POST_TAG_MAX = 32;
/** GET posts/latest returns at most this many. */
export const LATEST_POSTS = 20;

/** Tags trimmed, empty ones dropped, duplicates removed (first spelling kept). */
const tagsSchema = z
  .array(z.string().trim().max(POST_TAG_MAX).refine(isOneLine, ITEM_ONE_LINE))
  .max(POST_TAGS_MAX)
  .transform((tags) => [...new Set(tags.filter((t) => t.length > 0))]);

export const postCreateSchema = z.object({
  title: z.string().trim().min(1).max(POST_TITLE_MAX).refine(isOneLine, ONE_LINE),
  // A text area in the post editor: it keeps its line breaks.
  summary: z.string().max(POST_SUMMARY_MAX).nullish(),
  content: z.string().max(POST_CONTENT_MAX).nullish(),
  tags: tagsSchema.nullish(),
  isPinned: z.boolean().nullish(),
});
export type PostCreateInput = z.infer<typeof postCreateSchema>;

/** PUT edit/posts/{id}: every field optional; omitted or null fields stay unchanged. */
export const postUpdateSchema = postCreateSchema.extend({ title: postCreateSchema.shape.title.nullish() });
export type PostUpdateInput = z.infer<typeof postUpdateSchema>;

/** PostInfoModel (api.md §4). `time` is the last update, epoch ms. */
export interface PostInfo {
  id: string;
  title: string;
  summary: string;
  isPinned: boolean;
  tags: string[];
  authorAvatar: string | null;
  authorName: string | null;
  time: number;
}

/** PostDetailModel: PostInfoModel + content. */
export interface PostDetail extends PostInfo {
  content: string;
}

const POST_ID = /^[0-9a-z]{8}$/;
/** Post ids are 8 lower-case letters and digits; paths are lower-cased before matching. */
export const isPostId = (id: string) => POST_ID.test(id);
