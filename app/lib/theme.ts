import { useSyncExternalStore } from "react";

export const THEMES = ["auto", "dark", "light"] as const;
export type ThemePreference = (typeof THEMES)[number];
export type ResolvedTheme = "dark" | "light";

/** The same name for the localStorage key and the cookie: the browser keeps the choice, the server reads the cookie. */
export const THEME_KEY = "flagstaff-theme";
export const DEFAULT_THEME: ThemePreference = "dark";
const CHANGE_EVENT = "flagstaff-theme-change";
const DARK_QUERY = "(prefers-color-scheme: dark)";
const ONE_YEAR_S = 365 * 24 * 60 * 60;

export function parseTheme(value: string | null | undefined): ThemePreference | null {
  return THEMES.find((t) => t === value) ?? null;
}

/** The theme cookie from a Cookie header (server side); the default when absent or invalid. */
export function themeFromCookieHeader(header: string | null): ThemePreference {
  const match = header?.match(new RegExp(`(?:^|;\\s*)${THEME_KEY}=([a-z]+)`));
  return parseTheme(match?.[1]) ?? DEFAULT_THEME;
}

export function resolveTheme(preference: ThemePreference, systemDark: boolean): ResolvedTheme {
  if (preference === "auto") return systemDark ? "dark" : "light";
  return preference;
}

/**
 * Runs in <head> before the body is parsed, so the first paint already has the right class: the
 * stored choice (localStorage, else the cookie, else dark), with `auto` following the OS setting.
 * It also copies the stored choice into the cookie so the next server render matches.
 */
export const themeInitScript = `(function(){try{var k=${JSON.stringify(THEME_KEY)},p=null;try{p=localStorage.getItem(k)}catch(e){}
if(p!=="auto"&&p!=="dark"&&p!=="light"){var m=document.cookie.match(/(?:^|;\\s*)${THEME_KEY}=(auto|dark|light)/);p=m?m[1]:${JSON.stringify(DEFAULT_THEME)}}
var d=p==="dark"||(p==="auto"&&window.matchMedia(${JSON.stringify(DARK_QUERY)}).matches);
var c=document.documentElement.classList;c.toggle("dark",d);c.toggle("light",!d);
if(document.cookie.indexOf(k+"="+p)<0)document.cookie=k+"="+p+"; Path=/; Max-Age=${ONE_YEAR_S}; SameSite=Lax"}catch(e){}})();`;

function readStoredTheme(): ThemePreference | null {
  try {
    return parseTheme(window.localStorage.getItem(THEME_KEY));
  } catch {
    return null;
  }
}

export function setThemePreference(preference: ThemePreference) {
  try {
    window.localStorage.setItem(THEME_KEY, preference);
  } catch {
    // Storage disabled: the cookie alone keeps the choice.
  }
  document.cookie = `${THEME_KEY}=${preference}; Path=/; Max-Age=${ONE_YEAR_S}; SameSite=Lax`;
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

function subscribeTheme(onChange: () => void) {
  const onStorage = (e: StorageEvent) => {
    if (e.key === THEME_KEY) onChange();
  };
  window.addEventListener(CHANGE_EVENT, onChange);
  window.addEventListener("storage", onStorage);
  return () => {
    window.removeEventListener(CHANGE_EVENT, onChange);
    window.removeEventListener("storage", onStorage);
  };
}

function subscribeSystem(onChange: () => void) {
  const media = window.matchMedia(DARK_QUERY);
  media.addEventListener("change", onChange);
  return () => media.removeEventListener("change", onChange);
}

/**
 * The chosen and the applied theme. `serverPreference` (from the cookie) is what the server rendered
 * with; hydration starts from it and then moves to the browser's stored value.
 */
export function useTheme(serverPreference: ThemePreference): { preference: ThemePreference; resolved: ResolvedTheme } {
  const preference = useSyncExternalStore(
    subscribeTheme,
    () => readStoredTheme() ?? serverPreference,
    () => serverPreference,
  );
  const systemDark = useSyncExternalStore(
    subscribeSystem,
    () => window.matchMedia(DARK_QUERY).matches,
    () => true,
  );
  return { preference, resolved: resolveTheme(preference, systemDark) };
}
