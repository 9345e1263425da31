import { desc, eq } from "drizzle-orm";
import { notFound } from "~/core/errors";
import {
  LATEST_POSTS,
  type PostCreateInput,
  type PostDetail,
  type PostInfo,
  type PostUpdateInput,
  isPostId,
} from "~/core/schemas/post";
import { avatarUrl } from "../auth/session";
import type { Db } from "../db/client";
import { posts, users } from "../db/schema";

export interface PostDeps {
  db: Db;
  now: number;
}

const ID_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** A random 8-character post id of lower-case letters and digits (rejection sampling, no bias). */
export function generatePostId(): string {
  let id = "";
  while (id.length < 8) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    for (const b of bytes) {
      if (b < 252 && id.length < 8) id += ID_ALPHABET[b % 36];
    }
  }
  return id;
}

/** What a list shows: everything but the content, which only the post's own page reads. */
const infoColumns = {
  id: posts.id,
  title: posts.title,
  summary: posts.summary,
  tags: posts.tags,
  isPinned: posts.isPinned,
  updateTime: posts.updateTime,
  authorName: users.userName,
  authorAvatarHash: users.avatarHash,
};

const detailColumns = { ...infoColumns, content: posts.content };

type InfoRow = {
  id: string;
  title: string;
  summary: string;
  tags: string[];
  isPinned: boolean;
  updateTime: number;
  authorName: string | null;
  authorAvatarHash: string | null;
};

type Row = InfoRow & { content: string };

function toInfo(r: InfoRow): PostInfo {
  return {
    id: r.id,
    title: r.title,
    summary: r.summary,
    isPinned: r.isPinned,
    tags: r.tags ?? [],
    authorAvatar: avatarUrl(r.authorAvatarHash),
    authorName: r.authorName,
    time: r.updateTime,
  };
}

const toDetail = (r: Row): PostDetail => ({ ...toInfo(r), content: r.content });

function selectPosts<C extends typeof infoColumns>(db: Db, columns: C) {
  return db.select(columns).from(posts).leftJoin(users, eq(users.id, posts.authorId));
}

/** All posts (or the first `limit`), pinned first, then newest. */
export async function listPosts(db: Db, limit?: number): Promise<PostInfo[]> {
  const query = selectPosts(db, infoColumns).orderBy(desc(posts.isPinned), desc(posts.updateTime), desc(posts.id));
  const rows = limit === undefined ? await query.all() : await query.limit(limit).all();
  return rows.map(toInfo);
}

export const latestPosts = (db: Db) => listPosts(db, LATEST_POSTS);

export async function getPost(db: Db, id: string): Promise<PostDetail> {
  if (!isPostId(id)) throw notFound("post.not_found");
  const row = await selectPosts(db, detailColumns).where(eq(posts.id, id)).get();
  if (!row) throw notFound("post.not_found");
  return toDetail(row);
}

function isUniqueViolation(err: unknown): boolean {
  return /UNIQUE constraint failed/i.test(String((err as { cause?: unknown })?.cause ?? err));
}

/** Creates a post written by `authorId`. */
export async function createPost({ db, now }: PostDeps, authorId: string, input: PostCreateInput): Promise<PostDetail> {
  for (let attempt = 0; ; attempt++) {
    const id = generatePostId();
    try {
      await db
        .insert(posts)
        .values({
          id,
          title: input.title,
          summary: input.summary ?? "",
          content: input.content ?? "",
          tags: input.tags ?? [],
          isPinned: input.isPinned ?? false,
          authorId,
          updateTime: now,
        })
        .run();
      return getPost(db, id);
    } catch (err) {
      // 36^8 ids make a clash very unlikely; try a fresh id a few times.
      if (!isUniqueViolation(err) || attempt >= 4) throw err;
    }
  }
}

/**
 * Updates the given fields (omitted or null unchanged). A change of `isPinned` alone keeps the post's
 * time, so pinning does not reorder posts by date.
 */
export async function updatePost({ db, now }: PostDeps, id: string, input: PostUpdateInput): Promise<PostDetail> {
  if (!isPostId(id)) throw notFound("post.not_found");
  const set: Partial<typeof posts.$inferInsert> = {};
  if (input.title != null) set.title = input.title;
  if (input.summary != null) set.summary = input.summary;
  if (input.content != null) set.content = input.content;
  if (input.tags != null) set.tags = input.tags;
  const contentChanged = Object.keys(set).length > 0;
  if (input.isPinned != null) set.isPinned = input.isPinned;
  if (contentChanged) set.updateTime = now;
  if (Object.keys(set).length > 0) {
    const updated = await db.update(posts).set(set).where(eq(posts.id, id)).returning({ id: posts.id }).get();
    if (!updated) throw notFound("post.not_found");
  }
  return getPost(db, id);
}

export async function deletePost(db: Db, id: string): Promise<void> {
  if (!isPostId(id)) throw notFound("post.not_found");
  const gone = await db.delete(posts).where(eq(posts.id, id)).returning({ id: posts.id }).get();
  if (!gone) throw notFound("post.not_found");
}
