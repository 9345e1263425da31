import { and, desc, eq, inArray, ne } from "drizzle-orm";
import type { AnswerResult } from "~/core/enums";
import type { GameEvent, SubmissionRecord } from "~/core/protocol";
import { compareNames } from "~/core/text-fold";
import { avatarUrl } from "../auth/session";
import { inChunks } from "../db/chunks";
import type { Db } from "../db/client";
import { challenges, cheatInfos, divisions, gameEvents, participations, submissions, teams, users } from "../db/schema";
import { requireGame } from "./games";

/** Monitor reads of a game's submissions, events and cheat records (api.md §10), newest first. */

export interface Page {
  count: number;
  skip: number;
}

/** GET game/{id}/events: newest first; `hideContainer` drops ContainerStart/ContainerDestroy; `teamId` keeps one team's. */
export async function listEvents(db: Db, gameId: number, query: Page & { hideContainer: boolean; teamId?: number | undefined }): Promise<GameEvent[]> {
  await requireGame(db, gameId);
  const where = and(
    eq(gameEvents.gameId, gameId),
    query.hideContainer ? ne(gameEvents.type, "ContainerStart") : undefined,
    query.hideContainer ? ne(gameEvents.type, "ContainerDestroy") : undefined,
    query.teamId ? eq(gameEvents.teamId, query.teamId) : undefined,
  );
  const rows = await db
    .select({ e: gameEvents, user: users.userName, team: teams.name })
    .from(gameEvents)
    .leftJoin(users, eq(users.id, gameEvents.userId))
    .leftJoin(teams, eq(teams.id, gameEvents.teamId))
    .where(where)
    .orderBy(desc(gameEvents.publishTime), desc(gameEvents.id))
    .limit(query.count)
    .offset(query.skip)
    .all();
  return rows.map(({ e, user, team }) => ({ type: e.type, values: e.values, time: e.publishTime, user: user ?? null, team: team ?? null, teamId: e.teamId }));
}

function submissionQuery(db: Db) {
  return db
    .select({
      id: submissions.id,
      answer: submissions.answer,
      status: submissions.status,
      time: submissions.submitTime,
      user: users.userName,
      email: users.email,
      team: teams.name,
      teamId: teams.id,
      challenge: challenges.title,
      challengeId: submissions.challengeId,
      ip: submissions.ip,
    })
    .from(submissions)
    .innerJoin(participations, eq(participations.id, submissions.participationId))
    .innerJoin(teams, eq(teams.id, participations.teamId))
    .innerJoin(challenges, eq(challenges.id, submissions.challengeId))
    .leftJoin(users, eq(users.id, submissions.userId));
}

type SubmissionRow = { id: number; answer: string; status: AnswerResult; time: number; user: string | null; team: string; teamId: number; challenge: string; challengeId: number; ip: string };

const submissionRecord = (r: SubmissionRow): SubmissionRecord => ({
  id: r.id,
  answer: r.answer,
  status: r.status,
  time: r.time,
  user: r.user ?? "",
  team: r.team,
  challenge: r.challenge,
  challengeId: r.challengeId,
  teamId: r.teamId,
  ip: r.ip,
});

export interface SubmissionFilter extends Page {
  type?: AnswerResult | undefined;
  challengeId?: number | undefined;
  teamId?: number | undefined;
}

/** GET game/{id}/submissions: newest first, true statuses, optionally of one status, challenge or team. */
export async function listSubmissions(db: Db, gameId: number, query: SubmissionFilter): Promise<SubmissionRecord[]> {
  await requireGame(db, gameId);
  const where = and(
    eq(submissions.gameId, gameId),
    query.type ? eq(submissions.status, query.type) : undefined,
    query.challengeId ? eq(submissions.challengeId, query.challengeId) : undefined,
    query.teamId ? eq(participations.teamId, query.teamId) : undefined,
  );
  const rows = await submissionQuery(db)
    .where(where)
    .orderBy(desc(submissions.id))
    .limit(query.count)
    .offset(query.skip)
    .all();
  return rows.map(submissionRecord);
}

/** The teams that joined a game, by name: what the monitor pages' team filter offers. */
export async function gameTeamOptions(db: Db, gameId: number) {
  const rows = await db.select({ id: teams.id, name: teams.name }).from(participations).innerJoin(teams, eq(teams.id, participations.teamId)).where(eq(participations.gameId, gameId)).all();
  return rows.sort((a, b) => compareNames(a.name, b.name) || a.id - b.id);
}

/** A game's challenges by category and title: what the submissions monitor's challenge filter offers. */
export async function gameChallengeOptions(db: Db, gameId: number) {
  const rows = await db.select({ id: challenges.id, title: challenges.title, category: challenges.category }).from(challenges).where(eq(challenges.gameId, gameId)).all();
  return rows.sort((a, b) => compareNames(a.category, b.category) || compareNames(a.title, b.title) || a.id - b.id);
}

/** Every submission of a game, newest first, with the user's email (the submission sheet). */
export async function allSubmissions(db: Db, gameId: number) {
  const rows = await submissionQuery(db).where(eq(submissions.gameId, gameId)).orderBy(desc(submissions.id)).all();
  return rows.map((r) => ({ ...r, user: r.user ?? "", email: r.email ?? "" }));
}

export interface ParticipationModel {
  id: number;
  team: { id: number; name: string; avatar: string | null };
  status: string;
  division: string | null;
  divisionId: number | null;
}

export interface CheatInfoModel {
  ownedTeam: ParticipationModel;
  submitTeam: ParticipationModel;
  submission: SubmissionRecord;
}

/** GET game/{id}/cheatinfo: every cheat record, newest first. */
export async function listCheatInfo(db: Db, gameId: number): Promise<CheatInfoModel[]> {
  await requireGame(db, gameId);
  const rows = await db
    .select({ owned: cheatInfos.ownedParticipationId, submit: cheatInfos.submitParticipationId, submissionId: cheatInfos.submissionId })
    .from(cheatInfos)
    .where(eq(cheatInfos.gameId, gameId))
    .orderBy(desc(cheatInfos.id))
    .all();
  if (rows.length === 0) return [];
  const pids = [...new Set(rows.flatMap((r) => [r.owned, r.submit]))];
  const sids = rows.map((r) => r.submissionId);
  const parts = new Map<number, ParticipationModel>();
  const partRows = await inChunks(pids, (part) =>
    db
      .select({ p: participations, team: teams, division: divisions.name })
      .from(participations)
      .innerJoin(teams, eq(teams.id, participations.teamId))
      .leftJoin(divisions, eq(divisions.id, participations.divisionId))
      .where(inArray(participations.id, part))
      .all(),
  );
  for (const { p, team, division } of partRows)
    parts.set(p.id, { id: p.id, team: { id: team.id, name: team.name, avatar: avatarUrl(team.avatarHash) }, status: p.status, division: division ?? null, divisionId: p.divisionId });
  const subs = new Map<number, SubmissionRecord>();
  for (const r of await inChunks(sids, (part) => submissionQuery(db).where(inArray(submissions.id, part)).all()))
    subs.set(r.id, submissionRecord(r));
  return rows
    .filter((r) => parts.has(r.owned) && parts.has(r.submit) && subs.has(r.submissionId))
    .map((r) => ({ ownedTeam: parts.get(r.owned)!, submitTeam: parts.get(r.submit)!, submission: subs.get(r.submissionId)! }));
}
