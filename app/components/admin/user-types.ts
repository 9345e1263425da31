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
 * Pasted lines "userName,password,email[,realName,stdNumber,phone,teamName]" (comma or tab separated; blank
 * lines skipped) as batch rows. The server checks every field and reports each row.
 */
export function parseBatchLines(text: string): BatchUserRow[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .map((line) => {
      const [userName = "", password = "", email = "", realName, stdNumber, phone, teamName] = line
        .split(/[,\t]/)
        .map((cell) => cell.trim());
      const row: BatchUserRow = { userName, password, email };
      if (realName) row.realName = realName;
      if (stdNumber) row.stdNumber = stdNumber;
      if (phone) row.phone = phone;
      if (teamName) row.teamName = teamName;
      return row;
    });
}
