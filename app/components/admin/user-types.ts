import Papa from "papaparse";
import type { Role } from "~/core/enums";

/** UserInfoModel of GET /api/admin/users (api.md §4). */
export interface AdminUserInfo {
  id: string;
  userName: string;
  realName: string;
  stdNumber: string;
  phone: string;
  bio: string;
  registerTimeUtc: number;
  lastVisitedUtc: number;
  ip: string;
  email: string;
  avatar: string | null;
  role: Role;
  emailConfirmed: boolean;
}

/** One row of POST /api/admin/users and its outcome. */
export interface BatchUserRow {
  userName: string;
  password: string;
  email: string;
  realName?: string;
  stdNumber?: string;
  phone?: string;
  teamName?: string;
}

export interface BatchUserResult {
  userName: string;
  /** "created", "updated", or the row's localised error. */
  result: string;
}

/** DD/MM/YYYY HH:mm:ss in the viewer's time zone (app/lib/datetime.ts). */
export { formatDateTime } from "~/lib/datetime";

/**
 * Pasted lines "userName,password,email[,realName,stdNumber,phone,teamName]" as batch rows: CSV (RFC 4180:
 * a cell in double quotes may hold commas, line breaks and doubled quotes) or tab-separated cells as a
 * spreadsheet copies them; blank lines skipped. The server checks every field and reports each row.
 * `badQuoteLine` is the line (1-based) of a quote that is never closed: nothing is sent then.
 */
export function parseBatchLines(text: string): { rows: BatchUserRow[]; badQuoteLine: number | null } {
  const parsed = Papa.parse<string[]>(text.trim(), { delimitersToGuess: [",", "\t"], skipEmptyLines: "greedy" });
  const quote = parsed.errors.find((e) => e.type === "Quotes");
  if (quote) return { rows: [], badQuoteLine: lineOf(text.trim(), quote.index) };
  const rows = parsed.data.map((cells) => {
    const [userName = "", password = "", email = "", realName, stdNumber, phone, teamName] = cells.map((cell) => cell.trim());
    const row: BatchUserRow = { userName, password, email };
    if (realName) row.realName = realName;
    if (stdNumber) row.stdNumber = stdNumber;
    if (phone) row.phone = phone;
    if (teamName) row.teamName = teamName;
    return row;
  });
  return { rows, badQuoteLine: null };
}

/** The 1-based line of a character offset (the end of the text when the offset is unknown). */
function lineOf(text: string, index: number | undefined): number {
  return text.slice(0, index ?? text.length).split(/\r?\n/).length;
}
