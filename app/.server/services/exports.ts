import { eq } from "drizzle-orm";
import writeXlsxFile, { type Row, type SheetData } from "write-excel-file/node";
import type { AnswerResult } from "~/core/enums";
import { AppError, GAME_NOT_STARTED, notFound } from "~/core/errors";
import type { Translate } from "~/core/i18n/translator";
import { computeColumnWidths } from "~/core/sheet-columns";
import { orderChallenges, type ScoreboardModel } from "~/core/scoring/scoreboard";
import { safeSegment } from "~/core/writeup-names";
import type { Db } from "../db/client";
import { participationMembers, participations, teams, users } from "../db/schema";
import { requireGame } from "./games";
import { allSubmissions } from "./submissions";

/**
 * The monitor's Excel exports (rules.md §12): the scoreboard sheet and the submission sheet, written as
 * real .xlsx files by `write-excel-file`. Its Node build (node:stream and node:buffer, both in workerd's
 * nodejs_compat): the universal build zips with fflate's `zip()`, which compresses an entry of 160 KB or
 * more in a Web Worker — there is none in workerd, so every sheet of a game with more than a few hundred
 * submissions failed (500, "Worker is not defined"). The Node build streams the zip with fflate's
 * synchronous `ZipDeflate`.
 */

export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
export const EMPTY_CELL = "<empty>";
export const JOIN = " / ";

export const SUBMISSION_STATUS_LABELS: Record<AnswerResult, string> = {
  Accepted: "ACCEPTED",
  WrongAnswer: "WRONG",
  CheatDetected: "Cheat detection",
  FlagSubmitted: "Successfully submitted",
  NotFound: "Unknown instance",
};

export interface SheetFile {
  name: string;
  body: Uint8Array<ArrayBuffer>;
}

/** One sheet as the bytes of an .xlsx file, the header row kept in view, each column as wide as its content. */
async function xlsx(rows: SheetData, sheet: string): Promise<Uint8Array<ArrayBuffer>> {
  const columns = computeColumnWidths(rows);
  return new Uint8Array(await writeXlsxFile(rows, { sheet, stickyRowsCount: 1, columns }).toBuffer());
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** `yyyyMMdd`, `HH`, `mm`, `ss` of a UTC instant. */
function utcParts(ms: number) {
  const d = new Date(ms);
  return {
    date: `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`,
    h: pad(d.getUTCHours()),
    m: pad(d.getUTCMinutes()),
    s: pad(d.getUTCSeconds()),
  };
}

/** `{GameTitle}-Scoreboard-{yyyyMMdd-HH.mm.ss}Z.xlsx`, the title as one path segment (as the writeups' archive has it). */
export function scoreboardFileName(title: string, now: number): string {
  const p = utcParts(now);
  return `${safeSegment(title)}-Scoreboard-${p.date}-${p.h}.${p.m}.${p.s}Z.xlsx`;
}

/** `{GameTitle}_Submissions_{yyyyMMddHHmmss}.xlsx` */
export function submissionsFileName(title: string, now: number): string {
  const p = utcParts(now);
  return `${safeSegment(title)}_Submissions_${p.date}${p.h}${p.m}${p.s}.xlsx`;
}

/** Several values joined with ` / `, each empty one (and an empty list) printed as `<empty>`. */
export function joinValues(values: readonly string[]): string {
  if (values.length === 0) return EMPTY_CELL;
  return values.map((v) => (v.trim() === "" ? EMPTY_CELL : v)).join(JOIN);
}

const text = (v: string | null | undefined) => (v && v.trim() !== "" ? v : EMPTY_CELL);
const DATE_FORMAT = "yyyy-mm-dd hh:mm:ss";
const header = (labels: string[]): Row => labels.map((value) => ({ value, fontWeight: "bold" as const }));
const timeCell = (ms: number) => (ms > 0 ? { value: new Date(ms), type: Date, format: DATE_FORMAT } : EMPTY_CELL);

interface Member {
  userName: string;
  realName: string;
  email: string;
  stdNumber: string;
  phone: string;
}

/** Per team of the game: captain user name and the members registered in this game through the team. */
async function teamRoster(db: Db, gameId: number): Promise<Map<number, { captain: string; members: Member[] }>> {
  const parts = await db
    .select({ id: participations.id, teamId: participations.teamId, captain: users.userName })
    .from(participations)
    .innerJoin(teams, eq(teams.id, participations.teamId))
    .leftJoin(users, eq(users.id, teams.captainId))
    .where(eq(participations.gameId, gameId))
    .all();
  const members = await db
    .select({
      participationId: participationMembers.participationId,
      userName: users.userName,
      realName: users.realName,
      email: users.email,
      stdNumber: users.stdNumber,
      phone: users.phone,
    })
    .from(participationMembers)
    .innerJoin(users, eq(users.id, participationMembers.userId))
    .where(eq(participationMembers.gameId, gameId))
    .orderBy(users.userName)
    .all();
  const byParticipation = new Map<number, Member[]>();
  for (const { participationId, ...m } of members) {
    const list = byParticipation.get(participationId) ?? [];
    list.push(m);
    byParticipation.set(participationId, list);
  }
  const out = new Map<number, { captain: string; members: Member[] }>();
  for (const p of parts) out.set(p.teamId, { captain: p.captain ?? "", members: byParticipation.get(p.id) ?? [] });
  return out;
}

/** The rows of the scoreboard sheet (header first); exported for tests of the layout. */
export function scoreboardRows(
  board: ScoreboardModel,
  roster: Map<number, { captain: string; members: Member[] }>,
  t: Translate,
): SheetData {
  const hasDivisions = board.divisions.length > 0;
  const divisionName = new Map(board.divisions.map((d) => [d.id, d.name]));
  const challenges = orderChallenges(Object.values(board.challenges).flatMap((list) => list ?? []));
  const labels = [
    t("common:exports.rank"),
    t("common:exports.team"),
    ...(hasDivisions ? [t("common:exports.division")] : []),
    t("common:exports.captain"),
    t("common:exports.crew"),
    t("common:exports.realName"),
    t("common:exports.email"),
    t("common:exports.stdNumber"),
    t("common:exports.phone"),
    t("common:exports.solved"),
    t("common:exports.time"),
    t("common:exports.score"),
    ...challenges.map((c) => c.title),
  ];
  const rows: SheetData = [header(labels)];
  for (const item of board.items) {
    const team = roster.get(item.id) ?? { captain: "", members: [] };
    const points = new Map(item.solvedChallenges.map((s) => [s.id, s.score]));
    const pick = (f: keyof Member) => joinValues(team.members.map((m) => m[f]));
    rows.push([
      item.rank === 0 ? "-" : item.rank,
      text(item.name),
      ...(hasDivisions ? [text(item.divisionId === null ? null : divisionName.get(item.divisionId))] : []),
      text(team.captain),
      pick("userName"),
      pick("realName"),
      pick("email"),
      pick("stdNumber"),
      pick("phone"),
      item.solvedCount,
      timeCell(item.lastSubmissionTime),
      item.score,
      ...challenges.map((c) => points.get(c.id) ?? 0),
    ]);
  }
  return rows;
}

/** GET game/{id}/scoreboardsheet. `loadBoard` reads the room's in-memory board. */
export async function scoreboardSheet(
  db: Db,
  gameId: number,
  now: number,
  t: Translate,
  loadBoard: () => Promise<ScoreboardModel | null>,
): Promise<SheetFile> {
  const game = await requireGame(db, gameId);
  if (now < game.startTime) throw new AppError(GAME_NOT_STARTED, "game.not_started");
  const [board, roster] = await Promise.all([loadBoard(), teamRoster(db, gameId)]);
  if (!board) throw notFound("game.not_found");
  const body = await xlsx(scoreboardRows(board, roster, t), "Scoreboard");
  return { name: scoreboardFileName(game.title, now), body };
}

/** GET game/{id}/submissionsheet: every submission, newest first. */
export async function submissionSheet(db: Db, gameId: number, now: number, t: Translate): Promise<SheetFile> {
  const game = await requireGame(db, gameId);
  const subs = await allSubmissions(db, gameId);
  const rows: SheetData = [
    header([
      t("common:exports.status"),
      t("common:exports.time"),
      t("common:exports.team"),
      t("common:exports.user"),
      t("common:exports.challenge"),
      t("common:exports.submission"),
      t("common:exports.email"),
    ]),
  ];
  for (const s of subs) {
    rows.push([
      SUBMISSION_STATUS_LABELS[s.status],
      timeCell(s.time),
      text(s.team),
      text(s.user),
      text(s.challenge),
      text(s.answer),
      text(s.email),
    ]);
  }
  const body = await xlsx(rows, "All Submissions");
  return { name: submissionsFileName(game.title, now), body };
}
