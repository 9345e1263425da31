import { ANSWER_RESULTS, type AnswerResult } from "~/core/enums";
import type { SubmissionRecord } from "~/core/protocol";

/** The monitor's submission filter, kept in the page's address (`?status=&challenge=&team=`, useAddressFilter). */
export interface SubmissionFilter {
  status: AnswerResult | "";
  challenge: number | null;
  /** A team id. */
  team: number | null;
}

function positiveId(raw: string | null): number | null {
  const n = Number(raw);
  return raw !== null && Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** The filter an address asks for; anything unreadable is no filter. */
export function submissionFilterFrom(params: URLSearchParams): SubmissionFilter {
  const status = params.get("status");
  return {
    status: (ANSWER_RESULTS as readonly string[]).includes(status ?? "") ? (status as AnswerResult) : "",
    challenge: positiveId(params.get("challenge")),
    team: positiveId(params.get("team")),
  };
}

/** The query of GET game/{id}/submissions for a filter and page. */
export function submissionsQuery(filter: SubmissionFilter, count: number, skip: number): string {
  const params = new URLSearchParams({ count: String(count), skip: String(skip) });
  if (filter.status) params.set("type", filter.status);
  if (filter.challenge !== null) params.set("challengeId", String(filter.challenge));
  if (filter.team !== null) params.set("teamId", String(filter.team));
  return params.toString();
}

/** Whether a pushed submission belongs in the filtered list. */
export function matchesSubmissionFilter(record: SubmissionRecord, filter: SubmissionFilter): boolean {
  return (
    (filter.status === "" || record.status === filter.status) &&
    (filter.challenge === null || record.challengeId === filter.challenge) &&
    (filter.team === null || record.teamId === filter.team)
  );
}

/**
 * A pushed submission applied to the rows shown, newest first: its row goes to the top with its latest
 * status, or leaves the list when that status no longer matches the filter (a "FlagSubmitted" row once judged).
 */
export function pushSubmission(rows: readonly SubmissionRecord[], record: SubmissionRecord, filter: SubmissionFilter): SubmissionRecord[] {
  const rest = rows.filter((r) => r.id !== record.id);
  return matchesSubmissionFilter(record, filter) ? [record, ...rest] : rest;
}

/**
 * The rows (newest first) cut to the `max` newest: a page open for hours shows as many rows as it read,
 * not every submission pushed since. The rows kept stay the newest part of the server's list, so the next
 * page starts at their number.
 */
export function keepNewest(rows: SubmissionRecord[], max: number): SubmissionRecord[] {
  return rows.length > max ? rows.slice(0, max) : rows;
}
