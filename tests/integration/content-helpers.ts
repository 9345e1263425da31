import { eq } from "drizzle-orm";
import { users } from "~/.server/db/schema";
import { db, newUser } from "./helpers";

/** A fresh signed-in user promoted to Admin. */
export async function newAdmin() {
  const u = await newUser();
  await db().update(users).set({ role: "Admin" }).where(eq(users.userName, u.userName));
  return u;
}

export async function sha256(bytes: Uint8Array<ArrayBuffer>) {
  const d = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52];
/** A PNG signature followed by `salt`, so every test stores distinct bytes. */
export const png = (salt: string) => new Uint8Array([...PNG, ...new TextEncoder().encode(salt)]);
