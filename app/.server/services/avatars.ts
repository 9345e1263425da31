import { eq } from "drizzle-orm";
import { unauthorized } from "~/core/errors";
import { avatarUrl, forgetCachedUser } from "../auth/session";
import { users } from "../db/schema";
import { IMAGE_LIMIT, releaseFile, type StorageDeps, storeUpload } from "../storage/files";

/** Stores a new avatar (an image by content, 1 B – 3 MB), releases the old one and returns its URL. */
export async function setUserAvatar(deps: StorageDeps, userId: string, file: unknown): Promise<string> {
  const { db } = deps;
  const user = await db.select({ avatarHash: users.avatarHash }).from(users).where(eq(users.id, userId)).get();
  if (!user) throw unauthorized();
  const stored = await storeUpload(deps, file, { kind: "image", limit: IMAGE_LIMIT, name: "avatar" });
  await db.update(users).set({ avatarHash: stored.hash }).where(eq(users.id, userId)).run();
  forgetCachedUser(userId);
  await releaseFile(deps, user.avatarHash);
  return avatarUrl(stored.hash)!;
}
