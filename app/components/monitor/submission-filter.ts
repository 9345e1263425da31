import { ANSWER_RESULTS, type AnswerResult } from "~/core/enums";
import type { SubmissionRecord } from "~/core/protocol";

/** The monitor's submission filter, kept in the page's address (`?status=&challenge=&team=`). */
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

/** The filter's set parts, named as the page's address (`status`, `challenge`, `team`) or the API (`type`, `challengeId`, `teamId`) names them. */
function filterEntries(filter: SubmissionFilter, names: { status: string; challenge: string; team: string }): [string, string][] {
  const entries: [string, string][] = [];
  if (filter.status) entries.push([names.status, filter.status]);
  if (filter.challenge !== null) entries.push([names.challenge, String(filter.challenge)]);
  if (filter.team !== null) entries.push([names.team, String(filter.team)]);
  return entries;
}

/** The address's parameters for a filter (those that filter nothing are left out). */
export function submissionFilterParams(filter: SubmissionFilter): URLSearchParams {
  return new URLSearchParams(filterEntries(filter, { status: "status", challenge: "challenge", team: "team" }));
}

/** The query of GET game/{id}/submissions for a filter and page. */
export function submissionsQuery(filter: SubmissionFilter, count: number, skip: number): string {
  const api = filterEntries(filter, { status: "type", challenge: "challengeId", team: "teamId" });
  return new URLSearchParams([["count", String(count)], ["skip", String(skip)], ...api]).toString();
}

/** Whether a pushed submission belongs in the filtered list. */
export function matchesSubmissionFilter(record: SubmissionRecord, filter: SubmissionFilter): boolean {
  return (
    (filter.status === "" || record.status === filter.status) &&
    (filter.challenge === null || record.challengeId === filter.challenge) &&
    (filter.team === null || record.teamId === filter.team)
  );
}
