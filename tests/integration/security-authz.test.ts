import { env } from "cloudflare:workers";
import fc from "fast-check";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { users } from "~/.server/db/schema";
import "../../workers/api";
import { routeTable } from "../../workers/api/registry";
import { Client, db, newUser, unique } from "./helpers";
import { createGame, HOUR, join, newAdmin, teamWithMembers, userIdOf } from "./game-helpers";

// The authorization matrix (every /api route × 8 roles, against seeded data, with a scan of every
// response for secrets the caller may not see) and property-based fuzzing of every JSON endpoint. The
// table is keyed by the registered routes (workers/api/registry.ts `routeTable`): a route without an
// entry here, or an entry without a route, fails the test.

type Role = "anonymous" | "noTeam" | "otherTeam" | "member" | "captain" | "monitor" | "admin" | "banned";
const ROLES: Role[] = ["anonymous", "noTeam", "otherTeam", "member", "captain", "monitor", "admin", "banned"];
type Route = (typeof routeTable)[number];

interface Seed {
  clients: Record<Role, Client>;
  game: number;
  hiddenGame: number;
  hiddenTitle: string;
  staticChallenge: number;
  dynamicChallenge: number;
  hiddenChallenge: number;
  teamA: number;
  teamB: number;
  memberId: string;
  submission: number;
  notice: number;
  post: string;
  userIds: string[];
  fileHash: string;
  /** secret text → roles allowed to see it */
  secrets: Map<string, Set<Role>>;
}

const PDF = (salt: string) => new TextEncoder().encode(`%PDF-1.4\n% ${salt}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`);

async function ok<T = unknown>(client: Client, path: string, init: Parameters<Client["json"]>[1] = {}): Promise<T> {
  const r = await client.json<T>(path, init);
  if (r.status !== 200) throw new Error(`${init.method ?? "GET"} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function seed(): Promise<Seed> {
  const stamp = unique("S");
  const admin = await newAdmin();
  const monitor = await newUser();
  await db().update(users).set({ role: "Monitor" }).where(eq(users.userName, monitor.userName));
  const noTeam = await newUser();
  const banned = await newUser();
  const a = await teamWithMembers(1);
  const b = await teamWithMembers(1);

  const gameInvite = `GAMEINV${stamp}`;
  const game = await createGame(admin.client, { acceptWithoutReview: true, writeupRequired: true, inviteCode: gameInvite, writeupDeadline: Date.now() + 2 * HOUR });
  const hiddenTitle = `HIDDENGAME${stamp}`;
  const hidden = await createGame(admin.client, { title: hiddenTitle, hidden: true });
  for (const t of [a, b]) {
    for (const player of [t.captain, t.members[0]!]) {
      const r = await join(player.client, game.id, { teamId: t.team.id, inviteCode: gameInvite });
      if (r.status !== 200) throw new Error(`join: ${r.status} ${JSON.stringify(r.body)}`);
    }
  }

  const staticFlag = `flag{STATIC${stamp}}`;
  const mk = async (title: string, type: string) =>
    (await ok<{ id: number }>(admin.client, `/api/edit/games/${game.id}/challenges`, { method: "POST", body: { title, category: "Misc", type } })).id;
  const staticChallenge = await mk(`Static ${stamp}`, "StaticAttachment");
  await ok(admin.client, `/api/edit/games/${game.id}/challenges/${staticChallenge}/flags`, { method: "POST", body: [{ flag: staticFlag }] });
  await ok(admin.client, `/api/edit/games/${game.id}/challenges/${staticChallenge}`, { method: "PUT", body: { isEnabled: true } });
  const dynamicChallenge = await mk(`Dynamic ${stamp}`, "DynamicAttachment");
  const dynFlags = [`flag{DYNA${stamp}}`, `flag{DYNB${stamp}}`, `flag{DYNC${stamp}}`];
  const asset = new FormData();
  asset.append("files", new File([`dynamic attachment ${stamp}`], "d.txt", { type: "text/plain" }));
  const [stored] = await ok<{ hash: string }[]>(admin.client, "/api/assets", { method: "POST", raw: asset });
  await ok(admin.client, `/api/edit/games/${game.id}/challenges/${dynamicChallenge}/flags`, {
    method: "POST",
    body: dynFlags.map((flag) => ({ flag, attachmentType: "Local", fileHash: stored!.hash })),
  });
  await ok(admin.client, `/api/edit/games/${game.id}/challenges/${dynamicChallenge}`, { method: "PUT", body: { isEnabled: true } });
  const hiddenChallengeTitle = `HIDDENCHAL${stamp}`;
  const hiddenChallenge = await mk(hiddenChallengeTitle, "StaticAttachment");

  // Team A: opens both challenges, submits, uploads a writeup. Team B opens the dynamic one too.
  for (const cid of [staticChallenge, dynamicChallenge]) {
    await ok(a.members[0]!.client, `/api/game/${game.id}/challenges/${cid}`);
    await ok(b.members[0]!.client, `/api/game/${game.id}/challenges/${cid}`);
  }
  const submission = await ok<number>(a.members[0]!.client, `/api/game/${game.id}/challenges/${staticChallenge}`, { method: "POST", body: { flag: "flag{wrong}" } });
  const wf = new FormData();
  wf.append("file", new File([PDF(stamp)], "w.pdf", { type: "application/pdf" }));
  await ok(a.captain.client, `/api/game/${game.id}/writeup`, { method: "POST", raw: wf });
  const writeupUrl = (await ok<{ url: string }>(a.captain.client, `/api/game/${game.id}/writeup`)).url;
  const notice = await ok<{ id: number }>(admin.client, `/api/edit/games/${game.id}/notices`, { method: "POST", body: { content: `notice ${stamp}` } });
  const post = await ok<{ id: string }>(admin.client, "/api/edit/posts", { method: "POST", body: { title: `Post ${stamp}`, content: "x" } });

  // Team secrets: invite codes (captains), team tokens (members).
  const inviteA = await ok<string>(a.captain.client, `/api/team/${a.team.id}/invite`);
  const inviteB = await ok<string>(b.captain.client, `/api/team/${b.team.id}/invite`);
  const tokenA = (await ok<{ teamToken: string }>(a.members[0]!.client, `/api/game/${game.id}/details`)).teamToken;
  const tokenB = (await ok<{ teamToken: string }>(b.members[0]!.client, `/api/game/${game.id}/details`)).teamToken;

  // The banned user: signed in, then banned (its session dies with the ban).
  const bannedId = await userIdOf(banned.client);
  await ok(admin.client, `/api/admin/users/${bannedId}`, { method: "PUT", body: { role: "Banned" } });

  const clients: Record<Role, Client> = {
    anonymous: new Client(),
    noTeam: noTeam.client,
    otherTeam: b.members[0]!.client,
    member: a.members[0]!.client,
    captain: a.captain.client,
    monitor: monitor.client,
    admin: admin.client,
    banned: banned.client,
  };
  const only = (...roles: Role[]) => new Set<Role>(["admin", ...roles]);
  const secrets = new Map<string, Set<Role>>([
    [staticFlag, only()],
    ...dynFlags.map((f): [string, Set<Role>] => [f, only()]),
    [gameInvite, only()],
    [hiddenTitle, only("monitor")],
    [hiddenChallengeTitle, only()],
    [writeupUrl.split("/")[2]!, only("member", "captain")],
    [inviteA.split(":").pop()!, only("captain")],
    [inviteB.split(":").pop()!, only()],
    [tokenA, only("member", "captain")],
    [tokenB, only("otherTeam")],
  ]);
  // Emails: each user's own, and admins.
  const emailOf: [Role, string][] = [
    ["noTeam", noTeam.userName],
    ["otherTeam", b.members[0]!.userName],
    ["member", a.members[0]!.userName],
    ["captain", a.captain.userName],
    ["monitor", monitor.userName],
  ];
  for (const [role, name] of emailOf) secrets.set(`${name}@example.com`.toLowerCase(), only(role));
  secrets.set(`${b.captain.userName}@example.com`.toLowerCase(), only());
  for (const s of secrets.keys()) expect(s.length, "secret too short to scan for").toBeGreaterThan(8);

  return {
    clients,
    game: game.id,
    hiddenGame: hidden.id,
    hiddenTitle,
    staticChallenge,
    dynamicChallenge,
    hiddenChallenge,
    teamA: a.team.id,
    teamB: b.team.id,
    memberId: a.members[0]!.id,
    submission,
    notice: notice.id,
    post: String(post.id),
    userIds: await Promise.all((["noTeam", "otherTeam", "member", "captain", "monitor", "admin"] as const).map((r) => userIdOf(clients[r]))).then((ids) => [...ids, bannedId, b.captain.id]),
    fileHash: stored!.hash,
    secrets,
  };
}

/** What one role may get from a route: a list of allowed statuses. */
type Expect = Partial<Record<Role, number[]>>;
interface Entry {
  /** The concrete path (params filled from the seed); destructive routes target ids that do not exist. */
  path: (s: Seed) => string;
  body?: (s: Seed) => unknown;
  raw?: () => BodyInit;
  expect?: Expect;
  /** Secrets this route may show to every role (by the contract). */
  shows?: (s: Seed) => string[];
}

const MISSING = 987654321;
const NO_UUID = "00000000-0000-4000-8000-000000000000";
const NO_HASH = "f".repeat(64);

/** The matrix: one entry per registered route, keyed "METHOD /path". */
const TABLE: Record<string, Entry> = {
  // Account
  "POST /account/register": { path: () => "/api/account/register", body: () => ({}) },
  "POST /account/login": { path: () => "/api/account/login", body: () => ({ userName: "nobody-here", password: "Wrong1234!" }) },
  "POST /account/logout": { path: () => "/api/account/logout" },
  "GET /account/profile": { path: () => "/api/account/profile" },
  "PUT /account/update": { path: () => "/api/account/update", body: () => ({}) },
  "PUT /account/changepassword": { path: () => "/api/account/changepassword", body: () => ({ old: "Wrong1234!", new: "Wrong1234!x" }) },
  "PUT /account/avatar": { path: () => "/api/account/avatar", raw: () => new FormData() },
  "POST /account/verify": { path: () => "/api/account/verify", body: () => ({ token: "x", email: "x@example.com" }), expect: allRoles([400, 401]) },
  "POST /account/recovery": { path: () => "/api/account/recovery", body: () => ({}) },
  "POST /account/passwordreset": { path: () => "/api/account/passwordreset", body: () => ({}) },
  "PUT /account/changeemail": { path: () => "/api/account/changeemail", body: () => ({}) },
  "POST /account/mailchangeconfirm": { path: () => "/api/account/mailchangeconfirm", body: () => ({}) },
  // Admin
  "GET /admin/config": { path: () => "/api/admin/config" },
  "PUT /admin/config": { path: () => "/api/admin/config", body: () => ({}) },
  "GET /admin/teams": { path: () => "/api/admin/teams" },
  "POST /admin/teams/search": { path: () => "/api/admin/teams/search?hint=a" },
  "PUT /admin/teams/:id": { path: () => `/api/admin/teams/${MISSING}`, body: () => ({}) },
  "DELETE /admin/teams/:id": { path: () => `/api/admin/teams/${MISSING}` },
  "POST /admin/teams/:id/kick/:userid": { path: (s) => `/api/admin/teams/${s.teamA}/kick/${NO_UUID}` },
  "GET /admin/users": { path: () => "/api/admin/users" },
  "POST /admin/users/search": { path: () => "/api/admin/users/search?hint=a" },
  "POST /admin/users": { path: () => "/api/admin/users", body: () => [] },
  "GET /admin/users/:id": { path: (s) => `/api/admin/users/${s.memberId}` },
  "PUT /admin/users/:id": { path: () => `/api/admin/users/${NO_UUID}`, body: () => ({}) },
  "DELETE /admin/users/:id": { path: () => `/api/admin/users/${NO_UUID}` },
  "DELETE /admin/users/:id/password": { path: () => `/api/admin/users/${NO_UUID}/password` },
  "GET /admin/logs": { path: () => "/api/admin/logs" },
  "POST /admin/config/logo": { path: () => "/api/admin/config/logo", raw: () => new FormData() },
  "DELETE /admin/config/logo": { path: () => "/api/admin/config/logo" },
  "GET /admin/files": { path: () => "/api/admin/files" },
  "PUT /admin/participation/:id/:status": { path: () => `/api/admin/participation/${MISSING}/Accepted` },
  "PUT /admin/participation/:id": { path: () => `/api/admin/participation/${MISSING}`, body: () => ({}) },
  "GET /admin/instances": { path: () => "/api/admin/instances" },
  "GET /admin/agents": { path: () => "/api/admin/agents" },
  "DELETE /admin/instances/:iid": { path: () => `/api/admin/instances/${NO_UUID}` },
  "GET /admin/writeups/:gameId": { path: (s) => `/api/admin/writeups/${s.game}` },
  "GET /admin/writeups/:gameId/all": { path: (s) => `/api/admin/writeups/${s.game}/all` },
  // Agent callbacks: signed with the agent secret, never a session.
  "POST /agent/instances": { path: () => "/api/agent/instances", body: () => ({ instanceIds: [] }), expect: allRoles([401]) },
  "POST /agent/events": { path: () => "/api/agent/events", body: () => ({ type: "container.destroyed" }), expect: allRoles([401]) },
  // Assets
  "POST /assets": { path: () => "/api/assets", raw: () => new FormData() },
  "DELETE /assets/:hash": { path: () => `/api/assets/${NO_HASH}` },
  // Captures (monitor)
  "GET /game/games/:id/captures": { path: (s) => `/api/game/games/${s.game}/captures` },
  "GET /game/captures/:cid": { path: (s) => `/api/game/captures/${s.staticChallenge}` },
  "GET /game/captures/:cid/:tid": { path: (s) => `/api/game/captures/${s.staticChallenge}/${s.teamA}` },
  "GET /game/captures/:cid/:tid/all": { path: (s) => `/api/game/captures/${s.staticChallenge}/${s.teamA}/all` },
  "DELETE /game/captures/:cid/:tid/all": { path: () => `/api/game/captures/${MISSING}/${MISSING}/all` },
  "GET /game/captures/:cid/:tid/:file": { path: (s) => `/api/game/captures/${s.staticChallenge}/${s.teamA}/x.pcap` },
  "DELETE /game/captures/:cid/:tid/:file": { path: () => `/api/game/captures/${MISSING}/${MISSING}/x.pcap` },
  // Containers: the static challenge has none; players of another game or none are refused.
  "POST /game/:id/container/:cid": { path: (s) => `/api/game/${s.game}/container/${s.staticChallenge}`, expect: { noTeam: [403, 404, 400], member: [400, 404] } },
  "POST /game/:id/container/:cid/extend": { path: (s) => `/api/game/${s.game}/container/${s.staticChallenge}/extend` },
  "DELETE /game/:id/container/:cid": { path: (s) => `/api/game/${s.game}/container/${s.staticChallenge}` },
  "POST /edit/games/:id/challenges/:cid/container": { path: (s) => `/api/edit/games/${s.game}/challenges/${s.staticChallenge}/container` },
  "DELETE /edit/games/:id/challenges/:cid/container": { path: (s) => `/api/edit/games/${s.game}/challenges/${s.staticChallenge}/container` },
  // Edit: challenges
  "GET /edit/games/:id/challenges": { path: (s) => `/api/edit/games/${s.game}/challenges` },
  "POST /edit/games/:id/challenges": { path: () => `/api/edit/games/${MISSING}/challenges`, body: () => ({ title: "x", category: "Misc", type: "StaticAttachment" }) },
  "POST /edit/games/:id/challenges/updateaccepted": { path: () => `/api/edit/games/${MISSING}/challenges/updateaccepted` },
  "GET /edit/games/:id/challenges/:cid": { path: (s) => `/api/edit/games/${s.game}/challenges/${s.staticChallenge}` },
  "PUT /edit/games/:id/challenges/:cid": { path: (s) => `/api/edit/games/${s.game}/challenges/${MISSING}`, body: () => ({}) },
  "DELETE /edit/games/:id/challenges/:cid": { path: (s) => `/api/edit/games/${s.game}/challenges/${MISSING}` },
  "POST /edit/games/:id/challenges/:cid/flags": { path: (s) => `/api/edit/games/${s.game}/challenges/${MISSING}/flags`, body: () => [{ flag: "flag{x}" }] },
  "DELETE /edit/games/:id/challenges/:cid/flags/:fid": { path: (s) => `/api/edit/games/${s.game}/challenges/${s.staticChallenge}/flags/${MISSING}` },
  "POST /edit/games/:id/challenges/:cid/attachment": { path: (s) => `/api/edit/games/${s.game}/challenges/${MISSING}/attachment`, body: () => ({ attachmentType: "None" }) },
  // Edit: posts, games, notices
  "POST /edit/posts": { path: () => "/api/edit/posts", body: () => ({}) },
  "PUT /edit/posts/:id": { path: () => `/api/edit/posts/${MISSING}`, body: () => ({}) },
  "DELETE /edit/posts/:id": { path: () => `/api/edit/posts/${MISSING}` },
  "POST /edit/games": { path: () => "/api/edit/games", body: () => ({ start: "x" }) },
  "GET /edit/games": { path: () => "/api/edit/games" },
  "GET /edit/games/:id": { path: (s) => `/api/edit/games/${s.game}` },
  "PUT /edit/games/:id": { path: () => `/api/edit/games/${MISSING}`, body: () => ({}) },
  "DELETE /edit/games/:id": { path: () => `/api/edit/games/${MISSING}` },
  "PUT /edit/games/:id/poster": { path: (s) => `/api/edit/games/${s.game}/poster`, raw: () => new FormData() },
  "DELETE /edit/games/:id/poster": { path: () => `/api/edit/games/${MISSING}/poster` },
  "GET /edit/games/:id/notices": { path: (s) => `/api/edit/games/${s.game}/notices` },
  "POST /edit/games/:id/notices": { path: () => `/api/edit/games/${MISSING}/notices`, body: () => ({ content: "x" }) },
  "PUT /edit/games/:id/notices/:nid": { path: (s) => `/api/edit/games/${s.game}/notices/${MISSING}`, body: () => ({ content: "x" }) },
  "DELETE /edit/games/:id/notices/:nid": { path: (s) => `/api/edit/games/${s.game}/notices/${MISSING}` },
  "DELETE /edit/games/:id/writeups": { path: () => `/api/edit/games/${MISSING}/writeups` },
  // Game: players' calls
  "GET /game/:id/challenges/:cid": { path: (s) => `/api/game/${s.game}/challenges/${s.dynamicChallenge}`, expect: { noTeam: [403, 404], member: [200], captain: [200], otherTeam: [200] } },
  "POST /game/:id/challenges/:cid": { path: (s) => `/api/game/${s.game}/challenges/${s.hiddenChallenge}`, body: () => ({ flag: "flag{guess}" }), expect: { noTeam: [403, 404], member: [404, 400], otherTeam: [404, 400] } },
  "GET /game/:id/challenges/:cid/status/:sid": { path: (s) => `/api/game/${s.game}/challenges/${s.staticChallenge}/status/${s.submission}`, expect: { member: [200], captain: [200], otherTeam: [403, 404], noTeam: [403, 404] } },
  "GET /game/:id/scoreboard": { path: (s) => `/api/game/${s.hiddenGame}/scoreboard`, expect: { anonymous: [401], noTeam: [403], otherTeam: [403], member: [403], captain: [403], banned: [401], monitor: [200], admin: [200] } },
  "GET /game/:id/details": { path: (s) => `/api/game/${s.game}/details`, expect: { member: [200], captain: [200], otherTeam: [200], noTeam: [403, 404] } },
  "GET /game/:id/events": { path: (s) => `/api/game/${s.game}/events` },
  "GET /game/:id/submissions": { path: (s) => `/api/game/${s.game}/submissions` },
  "GET /game/:id/cheatinfo": { path: (s) => `/api/game/${s.game}/cheatinfo` },
  "GET /game/:id/scoreboardsheet": { path: (s) => `/api/game/${s.game}/scoreboardsheet` },
  "GET /game/:id/submissionsheet": { path: (s) => `/api/game/${s.game}/submissionsheet` },
  "GET /game": { path: () => "/api/game" },
  // api.md §10: "A hidden game is reachable by id but absent from lists" (GET /game checks the lists).
  "GET /game/:id": { path: (s) => `/api/game/${s.hiddenGame}`, expect: allRoles([200]), shows: (s) => [s.hiddenTitle] },
  "POST /game/:id": { path: (s) => `/api/game/${s.game}`, body: (s) => ({ teamId: s.teamB }), expect: { captain: [400, 403, 409], member: [400, 403, 409], noTeam: [400, 403, 404] } },
  "DELETE /game/:id": { path: (s) => `/api/game/${s.hiddenGame}`, expect: { member: [400, 403, 404], noTeam: [400, 403, 404] } },
  "GET /game/:id/notices": { path: (s) => `/api/game/${s.hiddenGame}/notices`, expect: { anonymous: [401], noTeam: [403], otherTeam: [403], member: [403], captain: [403], banned: [401], monitor: [200], admin: [200] } },
  "GET /game/:id/participations": { path: (s) => `/api/game/${s.game}/participations` },
  "GET /game/:id/writeup": { path: (s) => `/api/game/${s.game}/writeup`, expect: { member: [200], captain: [200], otherTeam: [200], noTeam: [400, 403, 404] } },
  "POST /game/:id/writeup": { path: (s) => `/api/game/${s.game}/writeup`, raw: () => new FormData(), expect: { member: [400], noTeam: [400, 403, 404] } },
  // Info
  "GET /config": { path: () => "/api/config", expect: allRoles([200]) },
  "GET /captcha": { path: () => "/api/captcha", expect: allRoles([200]) },
  "GET /posts/latest": { path: () => "/api/posts/latest", expect: allRoles([200]) },
  "GET /posts": { path: () => "/api/posts", expect: allRoles([200]) },
  "GET /posts/:id": { path: (s) => `/api/posts/${s.post}`, expect: allRoles([200]) },
  // Proxy (signed by the platform for one team; unknown instances are 404 for everyone)
  "GET /proxy/noinst/:iid": { path: () => `/api/proxy/noinst/${NO_UUID}` },
  "GET /proxy/:iid": { path: () => `/api/proxy/${NO_UUID}` },
  // Teams
  "POST /team": { path: () => "/api/team", body: () => ({}) },
  "GET /team": { path: () => "/api/team" },
  "POST /team/accept": { path: () => "/api/team/accept", body: () => "not-an-invite" },
  "POST /team/verify": { path: () => "/api/team/verify", body: () => ({ teamToken: "x", publicKey: "y" }) },
  "GET /team/:id": { path: (s) => `/api/team/${s.teamB}`, expect: allRoles([200]) },
  "PUT /team/:id": { path: (s) => `/api/team/${s.teamB}`, body: () => ({ bio: "hijacked" }), expect: { noTeam: [403], member: [403], captain: [403], otherTeam: [403], monitor: [403], admin: [403] } },
  "DELETE /team/:id": { path: () => `/api/team/${MISSING}`, expect: { noTeam: [403, 404], member: [403, 404], captain: [403, 404], otherTeam: [403, 404], monitor: [403, 404], admin: [403, 404] } },
  "PUT /team/:id/avatar": { path: (s) => `/api/team/${s.teamB}/avatar`, raw: () => new FormData(), expect: { noTeam: [400, 403], member: [400, 403], captain: [400, 403], otherTeam: [400, 403] } },
  "GET /team/:id/invite": { path: (s) => `/api/team/${s.teamB}/invite`, expect: { noTeam: [403], member: [403], captain: [403], otherTeam: [403], monitor: [403], admin: [403] } },
  "PUT /team/:id/invite": { path: (s) => `/api/team/${s.teamB}/invite`, expect: { noTeam: [403], member: [403], captain: [403], otherTeam: [403], monitor: [403], admin: [403] } },
  "POST /team/:id/kick/:userid": { path: (s) => `/api/team/${s.teamA}/kick/${NO_UUID}`, expect: { noTeam: [403], member: [403], otherTeam: [403], monitor: [403], admin: [403], captain: [400, 404] } },
  "POST /team/:id/leave": { path: () => `/api/team/${MISSING}/leave`, expect: { noTeam: [400, 403, 404], member: [400, 403, 404], captain: [400, 403, 404], otherTeam: [400, 403, 404], monitor: [400, 403, 404], admin: [400, 403, 404] } },
  "PUT /team/:id/transfer": { path: (s) => `/api/team/${s.teamB}/transfer`, body: (s) => ({ newCaptainId: s.memberId }), expect: { noTeam: [403], member: [403], captain: [403], otherTeam: [403], monitor: [403], admin: [403] } },
};

function allRoles(statuses: number[]): Expect {
  return Object.fromEntries(ROLES.map((r) => [r, statuses]));
}

const key = (r: Route) => `${r.method} ${r.path}`;

/** The default rule from the route's auth level; an entry's `expect` refines it per role. */
function allowed(route: Route, role: Role, status: number, entry: Entry): boolean {
  const explicit = entry.expect?.[role];
  if (explicit) return explicit.includes(status);
  const signedOut = role === "anonymous" || role === "banned";
  switch (route.auth) {
    case "Public":
      return status !== 401 || route.path.startsWith("/account/login");
    case "User":
      return signedOut ? status === 401 : status !== 401;
    case "Monitor":
      if (signedOut) return status === 401;
      return role === "monitor" || role === "admin" ? status !== 401 && status !== 403 : status === 403;
    case "Admin":
      if (signedOut) return status === 401;
      return role === "admin" ? status !== 401 && status !== 403 : status === 403;
  }
}

let seeded: Seed;
beforeAll(async () => {
  seeded = await seed();
}, 60_000);

describe("authorization matrix", () => {
  it("has exactly one entry per registered route", () => {
    const registered = routeTable.map(key);
    expect(new Set(registered).size).toBe(registered.length);
    expect(registered.filter((k) => !(k in TABLE)), "routes without a matrix entry").toEqual([]);
    expect(Object.keys(TABLE).filter((k) => !registered.includes(k)), "entries without a route").toEqual([]);
  });

  it("every route answers each role as its table says and leaks no other team's or user's secrets", { timeout: 120_000 }, async () => {
    const failures: string[] = [];
    // Logout ends the session it is called with: run it last.
    const routes = [...routeTable].sort((a, b) => Number(key(a) === "POST /account/logout") - Number(key(b) === "POST /account/logout"));
    for (const route of routes) {
      const entry = TABLE[key(route)]!;
      for (const role of ROLES) {
        // Logout ends the session it is sent with (tested in security-sessions.test.ts): signed out only.
        if (key(route) === "POST /account/logout" && role !== "anonymous" && role !== "banned") continue;
        const client = seeded.clients[role];
        const res = await client.fetch(entry.path(seeded), {
          method: route.method,
          ...(entry.body ? { body: entry.body(seeded) } : {}),
          ...(entry.raw ? { raw: entry.raw() } : {}),
        });
        const type = res.headers.get("content-type") ?? "";
        const text = type.includes("json") || type.startsWith("text/") ? await res.text() : (await res.arrayBuffer(), "");
        const where = `${role} ${route.method} ${entry.path(seeded)} → ${res.status} ${text.slice(0, 160)}`;
        if (res.status >= 500) failures.push(`5xx: ${where}`);
        if (!allowed(route, role, res.status, entry)) failures.push(`status: ${where}`);
        if (res.status >= 400 && type.includes("json")) {
          const body = JSON.parse(text) as { title?: unknown; status?: unknown };
          if (typeof body.title !== "string" || body.status !== res.status) failures.push(`error shape: ${where}`);
        }
        const lower = text.toLowerCase();
        const shown = entry.shows?.(seeded) ?? [];
        for (const [secret, roles] of seeded.secrets) {
          if (!roles.has(role) && !shown.includes(secret) && lower.includes(secret.toLowerCase())) failures.push(`leak of ${secret}: ${where}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------
// Fuzzing: random and malformed bodies and query strings; never a 5xx, always the error shape, and
// (for unauthenticated and malformed requests) never a changed record.

/** The seed's rows in every key table (other test files share the database, so only these are compared). */
async function snapshot(s: Seed): Promise<Record<string, string>> {
  const games = `(${s.game}, ${s.hiddenGame})`;
  const teams = `(${s.teamA}, ${s.teamB})`;
  const userList = `(${s.userIds.map((id) => `'${id}'`).join(", ")})`;
  const parts = `(SELECT id FROM participations WHERE game_id IN ${games})`;
  const queries: Record<string, string> = {
    users: `SELECT * FROM users WHERE id IN ${userList}`,
    sessions: `SELECT id_hash, user_id, created_at FROM sessions WHERE user_id IN ${userList}`,
    teams: `SELECT * FROM teams WHERE id IN ${teams}`,
    team_members: `SELECT * FROM team_members WHERE team_id IN ${teams}`,
    games: `SELECT * FROM games WHERE id IN ${games}`,
    divisions: `SELECT * FROM divisions WHERE game_id IN ${games}`,
    challenges: `SELECT * FROM challenges WHERE game_id IN ${games}`,
    flags: `SELECT * FROM flags WHERE challenge_id IN (SELECT id FROM challenges WHERE game_id IN ${games})`,
    participations: `SELECT * FROM participations WHERE game_id IN ${games}`,
    participation_members: `SELECT * FROM participation_members WHERE participation_id IN ${parts}`,
    submissions: `SELECT * FROM submissions WHERE game_id IN ${games}`,
    first_solves: `SELECT * FROM first_solves WHERE game_id IN ${games}`,
    game_notices: `SELECT * FROM game_notices WHERE game_id IN ${games}`,
    writeups: `SELECT * FROM writeups WHERE participation_id IN ${parts}`,
    posts: `SELECT * FROM posts WHERE id = '${s.post}'`,
    files: `SELECT * FROM files WHERE hash = '${s.fileHash}'`,
  };
  const out: Record<string, string> = {};
  for (const [table, sql] of Object.entries(queries)) {
    const rows = (await env.DB.prepare(sql).all()).results as Record<string, unknown>[];
    // Users record their last visit on any signed-in request: compare what a request may not change.
    out[table] = JSON.stringify(rows.map(({ last_visited_time: _t, last_visited_ip: _i, ...rest }) => rest));
  }
  return out;
}

const jsonValue = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(fc.constantFrom("userName", "password", "email", "title", "content", "flag", "teamId", "name", "bio", "hints", "start", "end", "role", "id", "count", "skip", "__proto__", "constructor"), fc.jsonValue()),
  fc.array(fc.jsonValue(), { maxLength: 5 }),
);
const malformed = fc.oneof(
  fc.string().filter((s) => {
    try {
      JSON.parse(s);
      return false;
    } catch {
      return s.trim() !== "";
    }
  }),
  fc.constantFrom("{", "[1,", '{"a":}', "\u0000", "{\"title\":\"x\"", "nul", "'single'", "{}}", "\uFEFF{"),
);
const queryString = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom("count", "skip", "hint", "type", "filename", "id", "__proto__"), fc.string({ maxLength: 8 })), fc.oneof(fc.string({ maxLength: 20 }), fc.integer().map(String), fc.constantFrom("-1", "1e309", "NaN", "999999999999999999999", "%", "%zz"))), { maxLength: 4 })
  .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v.includes("%") ? v : encodeURIComponent(v)}`).join("&"));

function expectErrorShape(status: number, type: string, text: string, where: string) {
  expect(status, where).toBeLessThan(500);
  if (status >= 400 && status !== 404 && type.includes("json")) {
    const body = JSON.parse(text) as { title?: unknown; status?: unknown };
    expect(typeof body.title, where).toBe("string");
    expect(body.status, where).toBe(status);
  } else if (status >= 400) {
    expect(type, where).toContain("json");
    const body = JSON.parse(text) as { title?: unknown; status?: unknown };
    expect(typeof body.title, where).toBe("string");
  }
}

const jsonRoutes = () => routeTable.filter((r) => r.body || r.query);

describe("fuzzing every JSON endpoint (fast-check)", () => {
  it("unauthenticated random bodies and queries: no 5xx, the error shape, no record changed", { timeout: 120_000 }, async () => {
    const routes = jsonRoutes();
    expect(routes.length).toBeGreaterThan(30);
    const before = await snapshot(seeded);
    const anonymous = new Client();
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), jsonValue, queryString, async (route, body, query) => {
        runs++;
        const path = `${TABLE[key(route)]!.path(seeded)}${query ? `?${query}` : ""}`;
        const res = await anonymous.fetch(path, { method: route.method, ...(route.method === "GET" ? {} : { body }) });
        const text = await res.text();
        expectErrorShape(res.status, res.headers.get("content-type") ?? "", text, `${route.method} ${path} ${JSON.stringify(body)?.slice(0, 100)}`);
      }),
      { numRuns: 700 },
    );
    expect(runs).toBeGreaterThanOrEqual(700);
    expect(await snapshot(seeded)).toEqual(before);
  });

  it("signed-in malformed JSON to every body endpoint: 400 with the error shape, no record changed", { timeout: 120_000 }, async () => {
    const routes = routeTable.filter((r) => r.body);
    const before = await snapshot(seeded);
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.constantFrom<Role>("admin", "captain", "member", "monitor"), malformed, async (route, role, text) => {
        runs++;
        const path = TABLE[key(route)]!.path(seeded);
        const res = await seeded.clients[role].fetch(path, { method: route.method, raw: text, headers: { "content-type": "application/json" } });
        const body = await res.text();
        const where = `${role} ${route.method} ${path} ${JSON.stringify(text).slice(0, 60)}`;
        expectErrorShape(res.status, res.headers.get("content-type") ?? "", body, where);
        expect(res.status, where).not.toBe(200);
      }),
      { numRuns: 400 },
    );
    expect(runs).toBeGreaterThanOrEqual(400);
    expect(await snapshot(seeded)).toEqual(before);
  });

  it("signed-in random queries and bodies (admin and player): never a 5xx, errors keep their shape", { timeout: 120_000 }, async () => {
    // Read-only routes with random queries, and writes with random typed bodies against ids that do not
    // exist (TABLE's destructive entries), as the most privileged role.
    const routes = jsonRoutes().filter((r) => r.method === "GET" || TABLE[key(r)]!.path(seeded).includes(String(MISSING)));
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.constantFrom<Role>("admin", "member"), jsonValue, queryString, async (route, role, body, query) => {
        runs++;
        const path = `${TABLE[key(route)]!.path(seeded)}${query ? `?${query}` : ""}`;
        const res = await seeded.clients[role].fetch(path, { method: route.method, ...(route.method === "GET" ? {} : { body }) });
        const type = res.headers.get("content-type") ?? "";
        const text = type.includes("json") ? await res.text() : (await res.arrayBuffer(), "");
        expectErrorShape(res.status, type, text, `${role} ${route.method} ${path} ${JSON.stringify(body)?.slice(0, 100)}`);
      }),
      { numRuns: 300 },
    );
    expect(runs).toBeGreaterThanOrEqual(300);
  });
});
