import { eq } from "drizzle-orm";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { users } from "~/.server/db/schema";
import { db, newUser } from "./helpers";

async function openSocket(client: Awaited<ReturnType<typeof newUser>>["client"], path: string) {
  const res = await client.fetch(path, { headers: { upgrade: "websocket" } });
  return res;
}

describe("hub sockets", () => {
  it("lets admins subscribe to the admin hub and delivers published messages", async () => {
    const { client, userName } = await newUser();
    expect((await openSocket(client, "/hub/admin")).status).toBe(403);
    await db().update(users).set({ role: "Admin" }).where(eq(users.userName, userName));
    const res = await openSocket(client, "/hub/admin");
    expect(res.status).toBe(101);
    const ws = res.webSocket!;
    const received: { type: string; data: unknown; seq: number }[] = [];
    const got = new Promise<void>((resolve) => {
      ws.addEventListener("message", (e) => {
        received.push(JSON.parse(e.data as string));
        if (received.length === 2) resolve();
      });
    });
    ws.accept();
    const stub = env.ADMIN_HUB.get(env.ADMIN_HUB.idFromName("admin"));
    // Wait for the hello before publishing.
    await new Promise((r) => setTimeout(r, 50));
    const sent = await stub.publish("admin", "log", { time: 1, name: "x", level: "Information", ip: null, msg: "hello", status: null });
    expect(sent).toBeGreaterThanOrEqual(1);
    await got;
    expect(received[0]).toMatchObject({ type: "hello", data: { channel: "admin" } });
    expect(received[1]).toMatchObject({ type: "log", data: { msg: "hello" } });
    expect(received[1]!.seq).toBeGreaterThan(received[0]!.seq);
    ws.close(1000);
  });

  it("refuses anonymous admin sockets and unknown games", async () => {
    const { client } = await newUser();
    expect((await openSocket(client, "/hub/game/999999")).status).toBe(404);
    const plain = await client.fetch("/hub/admin");
    expect(plain.status).toBe(404);
  });
});
