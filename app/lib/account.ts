import type { RegisterStatus, Role } from "~/core/enums";

/** GET /api/account/profile (api.md §4 ProfileUserInfoModel). */
export interface Profile {
  userId: string;
  userName: string;
  email: string;
  bio: string;
  phone: string;
  realName: string;
  stdNumber: string;
  avatar: string | null;
  role: Role;
}

/** POST /api/account/register. */
export interface RegisterResponse {
  title: string;
  data: RegisterStatus;
  status: number;
}

/**
 * The page a request is for. A client-side navigation asks the server for its data at another address
 * (`/teams.data?_routes=routes%2Fteams`, `/_.data` for the home page): sent to the login page as the place
 * to come back to, that address lands on raw data and "No result found for routeId root".
 */
export function pagePath(url: URL): string {
  let path = url.pathname;
  if (path.endsWith("/_.data") || path.endsWith("/_root.data")) path = path.slice(0, path.lastIndexOf("/") + 1);
  else if (path.endsWith(".data")) path = path.slice(0, -".data".length);
  const search = new URLSearchParams(url.search);
  search.delete("_routes");
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** The login page, coming back to the page `url` is for. */
export function loginPath(url: URL): string {
  return `/account/login?from=${encodeURIComponent(pagePath(url))}`;
}

const SAME_SITE = "http://page.invalid";

/**
 * A same-site path to return to after signing in (a data address becomes its page); anything else goes home.
 * The path is read as a browser reads a `Location`: tabs and line breaks vanish and `\\` is `/`, so
 * `/<TAB>/evil.example` is another site; what is sent back is the URL's own spelling of the path, which
 * holds no control character (a raw line break in a header would fail the response).
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/")) return fallback;
  let url: URL;
  try {
    url = new URL(to, SAME_SITE);
  } catch {
    return fallback;
  }
  if (url.origin !== SAME_SITE) return fallback;
  const path = url.pathname.endsWith(".data") ? pagePath(url) : `${url.pathname}${url.search}${url.hash}`;
  // `/.//evil.example` keeps this site's origin here but reads as `//evil.example` once sent.
  return path.startsWith("//") || path.startsWith("/\\") ? fallback : path;
}

/** The text of a form field, or "" when absent. */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}
