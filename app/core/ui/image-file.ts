import { FILE_LIMITS } from "../http/body-limit";

/** The image types avatars, logos and posters accept (the server checks the bytes too, api.md §3). */
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;

/** Images are refused above this size by the server too (api.md §3); checking first saves the upload. */
export const IMAGE_MAX_BYTES = FILE_LIMITS.image;

export type ImageProblem = "empty" | "tooLarge" | "wrongType";

/**
 * What is wrong with a chosen image file before it is sent, so the message names it (the server's answer
 * to all three is one "Please check file format and size"). A type the browser does not know passes: the
 * server decides by the bytes.
 */
export function imageFileProblem(file: { size: number; type: string }): ImageProblem | null {
  if (file.size === 0) return "empty";
  if (file.size > IMAGE_MAX_BYTES) return "tooLarge";
  if (file.type !== "" && !(IMAGE_TYPES as readonly string[]).includes(file.type)) return "wrongType";
  return null;
}
