import { BODY_LIMITS, FILE_LIMITS } from "./body-limit";

/**
 * Splitting a multi-file upload to POST /api/assets into requests under its body cap. Each file may reach
 * the per-file rule (100 MB), so files that are each fine can together exceed one request's cap; the
 * browser then sends them in several requests, in order.
 */

export interface UploadFileInfo {
  name: string;
  size: number;
}

/** A file that no request can carry: empty, or over the per-file rule. */
export interface UploadFileProblem {
  index: number;
  reason: "empty" | "tooLarge";
}

export type UploadPlan = { ok: true; batches: number[][] } | ({ ok: false } & UploadFileProblem);

/**
 * What a part costs beyond its bytes: the boundary line and the part headers (≈ 150 B plus the name),
 * with room to spare; the name counts three times over, as if every byte were a `%22`-style escape.
 */
export const PART_FRAMING = 1024;

const utf8Length = (text: string) => new TextEncoder().encode(text).byteLength;

/** The bytes one file adds to a multipart request at most. */
export const multipartPartSize = (file: UploadFileInfo) => file.size + PART_FRAMING + 3 * utf8Length(file.name);

/**
 * The files' indexes in consecutive requests, each at most `requestLimit` bytes of multipart body, in
 * order (the stored list then lines up with the files). A file that is empty or over `fileLimit` is
 * named instead, so the message can say which one: the server would refuse the request it is in.
 */
export function planUploadBatches(
  files: readonly UploadFileInfo[],
  { fileLimit = FILE_LIMITS.attachment, requestLimit = BODY_LIMITS.attachments }: { fileLimit?: number; requestLimit?: number } = {},
): UploadPlan {
  const batches: number[][] = [];
  let current: number[] = [];
  let used = 0;
  for (const [index, file] of files.entries()) {
    if (file.size < 1) return { ok: false, index, reason: "empty" };
    if (file.size > fileLimit) return { ok: false, index, reason: "tooLarge" };
    const cost = multipartPartSize(file);
    if (current.length > 0 && used + cost > requestLimit) {
      batches.push(current);
      current = [];
      used = 0;
    }
    current.push(index);
    used += cost;
  }
  if (current.length > 0) batches.push(current);
  return { ok: true, batches };
}
