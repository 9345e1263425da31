/** Names of writeup files and archives (rules.md §13). */

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** `yyyyMMdd-HH.mm.ss` in UTC (callers append the `Z`). */
export function formatUtcStamp(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}-${pad(d.getUTCHours())}.${pad(d.getUTCMinutes())}.${pad(d.getUTCSeconds())}`;
}

/** A name usable as one path segment: no slashes or control characters, never empty, `.` or `..`. */
export function safeSegment(name: string, fallback = "_"): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is being removed
  const clean = name.replace(/[\u0000-\u001f\u007f/\\]/g, "_").trim();
  return clean && clean !== "." && clean !== ".." ? clean : fallback;
}

/** The stored name of a team's writeup: `Writeup-{gameId}-{teamId}-{yyyyMMdd-HH.mm.ss}Z.pdf`. */
export const writeupFileName = (gameId: number, teamId: number, uploadTime: number) =>
  `Writeup-${gameId}-${teamId}-${formatUtcStamp(uploadTime)}Z.pdf`;

/** The folder inside the archive and the archive's base name: `Writeups-{GameTitle}-{stamp}Z`. */
export const writeupArchiveFolder = (gameTitle: string, time: number) => `Writeups-${safeSegment(gameTitle, "game")}-${formatUtcStamp(time)}Z`;

/** The download name of all writeups of a game. */
export const writeupArchiveName = (gameTitle: string, time: number) => `${writeupArchiveFolder(gameTitle, time)}.tar.gz`;

/** An entry of the archive: the team name before the stored file name, inside the folder. */
export const writeupArchiveEntry = (folder: string, teamName: string, fileName: string) =>
  `${folder}/${safeSegment(teamName, "team")}-${safeSegment(fileName, "writeup.pdf")}`;

/** Whether an upload's declared name and type are those of a PDF (its bytes are checked separately). */
export function isPdfNameAndType(name: string, type: string): boolean {
  return /\.pdf$/i.test(name.trim()) && type.split(";")[0]!.trim().toLowerCase() === "application/pdf";
}

/** A `Content-Disposition: attachment` value that keeps non-ASCII names (RFC 6266 `filename*`). */
export function attachmentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
