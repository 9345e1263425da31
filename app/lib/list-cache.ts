import i18next from "i18next";
import { useCallback, useEffect, useRef, useState } from "react";
import type { Shape } from "~/core/ui/list-shape";
import { ApiError, endsPage, SESSION_ENDED } from "./api";
import { LIST_CACHE_PREFIX } from "./cache";

/**
 * Browser cache of API lists (rules.md §15): the last answer of each list is kept in localStorage, deflated
 * and base64-encoded, under LIST_CACHE_PREFIX (so "Clear Cache" empties it). A page paints from it at once
 * on reload and refreshes in the background, keeping the previous rows on screen while it does.
 * Compression is the browser's own (CompressionStream, raw DEFLATE), so no library ships for it; it is
 * asynchronous, hence reads and writes are too. Without CompressionStream lists are simply not cached.
 * What is stored and painted has the shape the page reads (its `Shape`), and an entry is used only by the
 * build of the app that stored it: one broken answer, or an API that changed with a deployment, would
 * otherwise break the page on every reload until the cache was cleared.
 */

/** Refresh intervals of rules.md §15. */
export const REFRESH_MS = {
  list: 10_000,
  detail: 120_000,
  slow: 300_000,
  instances: 30_000,
} as const;

/** Upper bound of all cached lists together, in stored characters (localStorage holds about 5 M). */
export const LIST_CACHE_BUDGET = 1_000_000;

/** The wrapper's format; the data's own shape is the build's (`b`) and the caller's (`Shape`). */
const FORMAT = 2;

/**
 * The build of the app running in this page: React Router's manifest version, a hash of the build's
 * routes and their chunks. "" outside a browser page.
 */
export function appBuild(): string {
  try {
    const version = (window as { __reactRouterManifest?: { version?: unknown } }).__reactRouterManifest?.version;
    return typeof version === "string" ? version : "";
  } catch {
    return "";
  }
}

/** The error of an answer that does not have the shape the page reads. */
export const unexpectedAnswer = () => new ApiError(i18next.t("common:error.badAnswer"), 502);

interface Envelope {
  /** Format version. */
  v: number;
  /** The build that stored it (appBuild). */
  b: string;
  /** When it was saved (ms). */
  t: number;
  /** Deflated JSON, base64. */
  z: string;
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  // In slices: String.fromCharCode takes its bytes as arguments.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Bytes through a (de)compression stream. */
async function pipeBytes(bytes: Uint8Array<ArrayBuffer>, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const output = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(output).arrayBuffer());
}

/** The stored text of a value saved at `savedAt` by `build`. */
export async function encodeEntry(value: unknown, savedAt: number, build = appBuild()): Promise<string> {
  const deflated = await pipeBytes(new TextEncoder().encode(JSON.stringify(value)), new CompressionStream("deflate-raw"));
  const envelope: Envelope = { v: FORMAT, b: build, t: savedAt, z: toBase64(deflated) };
  return JSON.stringify(envelope);
}

/**
 * The value and save time of a stored text; null when it is not a readable entry of this format stored by
 * `build`, or its value does not have `shape`.
 */
export async function decodeEntry<T>(raw: string | null, shape: Shape<T>, build = appBuild()): Promise<{ data: T; savedAt: number } | null> {
  if (!raw) return null;
  try {
    const envelope = JSON.parse(raw) as Partial<Envelope>;
    if (envelope.v !== FORMAT || envelope.b !== build || typeof envelope.t !== "number" || typeof envelope.z !== "string") return null;
    const inflated = await pipeBytes(fromBase64(envelope.z), new DecompressionStream("deflate-raw"));
    const data: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(inflated));
    return shape(data) ? { data, savedAt: envelope.t } : null;
  } catch {
    return null;
  }
}

export interface EntryStat {
  key: string;
  size: number;
  savedAt: number;
}

/**
 * Which entries to drop so the total size fits `budget`: the oldest first, never `keep` (the entry being
 * written). Unreadable entries (savedAt NaN) count as oldest.
 */
export function planEviction(entries: EntryStat[], budget: number, keep?: string): string[] {
  let total = entries.reduce((sum, e) => sum + e.size, 0);
  const order = entries
    .filter((e) => e.key !== keep)
    .sort((a, b) => (Number.isNaN(a.savedAt) ? -Infinity : a.savedAt) - (Number.isNaN(b.savedAt) ? -Infinity : b.savedAt));
  const drop: string[] = [];
  for (const entry of order) {
    if (total <= budget) break;
    drop.push(entry.key);
    total -= entry.size;
  }
  return drop;
}

function storage(): Storage | null {
  try {
    if (typeof CompressionStream === "undefined") return null;
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** When an entry was saved; NaN (evicted first) when it is unreadable or another build's, which is never used. */
function savedAtOf(raw: string, build: string): number {
  const match = /"t":(\d+)/.exec(raw);
  return match && raw.includes(`"b":${JSON.stringify(build)}`) ? Number(match[1]) : Number.NaN;
}

function entryStats(store: Storage): EntryStat[] {
  const build = appBuild();
  const stats: EntryStat[] = [];
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    if (!key?.startsWith(LIST_CACHE_PREFIX)) continue;
    const raw = store.getItem(key) ?? "";
    stats.push({ key, size: key.length + raw.length, savedAt: savedAtOf(raw, build) });
  }
  return stats;
}

/**
 * The shape of a list when its page names none (any object: an array or an ArrayResponse); anything else
 * (an HTML page, a broken body) is never cached.
 */
export function isCacheable(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}

/** The cached value of a list when it has `shape`, or null. `key` is without the prefix. */
export async function readCache<T>(key: string, shape: Shape<T>): Promise<{ data: T; savedAt: number } | null> {
  const store = storage();
  if (!store) return null;
  try {
    return await decodeEntry(store.getItem(LIST_CACHE_PREFIX + key), shape);
  } catch {
    return null;
  }
}

/** The latest write started for each key: an older one finishing later must not replace it. */
const writeSerial = new Map<string, number>();
let lastSerial = 0;

/**
 * Stores a list that has `shape` (any other is not stored), evicting the oldest entries beyond
 * LIST_CACHE_BUDGET; a full or disabled storage is ignored.
 */
export async function writeCache(key: string, value: unknown, shape: (value: unknown) => boolean, now = Date.now()): Promise<void> {
  const store = storage();
  if (!store) return;
  const fullKey = LIST_CACHE_PREFIX + key;
  if (!shape(value)) return;
  const serial = ++lastSerial;
  writeSerial.set(fullKey, serial);
  try {
    const raw = await encodeEntry(value, now);
    if (writeSerial.get(fullKey) !== serial) return;
    if (raw.length > LIST_CACHE_BUDGET) return;
    const stats = entryStats(store).filter((e) => e.key !== fullKey);
    stats.push({ key: fullKey, size: fullKey.length + raw.length, savedAt: now });
    for (const drop of planEviction(stats, LIST_CACHE_BUDGET, fullKey)) store.removeItem(drop);
    try {
      store.setItem(fullKey, raw);
    } catch {
      // Over the browser's quota: drop every other list and try once more.
      for (const e of entryStats(store)) if (e.key !== fullKey) store.removeItem(e.key);
      store.setItem(fullKey, raw);
    }
  } catch {
    // Storage full or disabled: the list simply is not cached.
  }
}

export interface CachedLoad<T> {
  data: T;
  /** True when `data` came from the browser cache and a refresh should follow at once. */
  fromCache: boolean;
}

/** Keys already loaded in this page load: later loads (navigation, revalidation) fetch from the network. */
const loadedThisPage = new Set<string>();

/**
 * For a clientLoader: on the first load of `key` in this page load, the cached list when there is one of
 * `shape` (the page paints at once and useCachedList refreshes it); otherwise the fetched list, then
 * cached. A fetched list of another shape is refused (unexpectedAnswer), never stored.
 */
export async function loadCached<T>(key: string, fetcher: () => Promise<unknown>, shape: Shape<T>): Promise<CachedLoad<T>> {
  if (!loadedThisPage.has(key)) {
    loadedThisPage.add(key);
    const cached = await readCache(key, shape);
    if (cached) return { data: cached.data, fromCache: true };
  }
  const data = await fetcher();
  if (!shape(data)) throw unexpectedAnswer();
  await writeCache(key, data, shape);
  return { data, fromCache: false };
}

export interface CachedListOptions<T> {
  /** The list the page starts with (from the loader). */
  initial: T;
  /** The initial list is from the cache: refresh at once. */
  stale?: boolean;
  /** Background refresh interval; 0 turns it off. */
  refreshMs?: number;
  /** Keep refreshed lists in the browser cache (default true). */
  persist?: boolean;
  /**
   * For lists loaded in an effect (no clientLoader): on mount, show the cached list in place of `initial`
   * (before the first refresh, which follows at once).
   */
  fromStorage?: boolean;
  /**
   * The list's shape: a refresh of another shape is an error (the previous data stays) and is not
   * stored, and a cached copy of another shape is not shown. The same as loadCached's for its key.
   * Without it any object is stored, and a refresh is shown whatever it is.
   */
  shape?: Shape<T>;
  /**
   * Refusals of a refresh that end the page (app/lib/session-end.ts): by default the session's end; a
   * monitor or admin page passes ACCESS_ENDED, so a role taken away or a game deleted shows what a reload
   * would instead of the rows read before.
   */
  endsOn?: readonly number[];
}

export interface CachedList<T> {
  data: T;
  refreshing: boolean;
  /** The error of the last refresh (the previous data stays), or null. */
  error: unknown;
  refresh: () => Promise<void>;
}

/**
 * Keeps a list fresh: starts from `initial` (a new `initial`, e.g. after a revalidation, replaces the data),
 * refreshes every `refreshMs` while the tab is visible (and at once when it becomes visible after that
 * long), keeping the previous data while it loads, and caches each answer under `key`.
 */
export function useCachedList<T>(
  key: string,
  fetcher: (signal: AbortSignal) => Promise<T>,
  { initial, stale = false, refreshMs = REFRESH_MS.list, persist = true, fromStorage = false, shape, endsOn = SESSION_ENDED }: CachedListOptions<T>,
): CachedList<T> {
  const [state, setState] = useState({ initial, data: initial });
  const [refreshing, setRefreshing] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const fetcherRef = useRef(fetcher);
  const shapeRef = useRef(shape);
  const lastRef = useRef(0);
  const controllerRef = useRef<AbortController | null>(null);

  let data = state.data;
  if (state.initial !== initial) {
    // Derived state: a new loader result wins over what the last refresh brought.
    setState({ initial, data: initial });
    data = initial;
  }

  useEffect(() => {
    fetcherRef.current = fetcher;
    shapeRef.current = shape;
  });

  const refresh = useCallback(async () => {
    controllerRef.current?.abort();
    const controller = new AbortController();
    controllerRef.current = controller;
    lastRef.current = Date.now();
    setRefreshing(true);
    try {
      const next = await fetcherRef.current(controller.signal);
      if (controller.signal.aborted) return;
      const check = shapeRef.current;
      if (check && !check(next)) throw unexpectedAnswer();
      loadedThisPage.add(key);
      if (persist) void writeCache(key, next, check ?? isCacheable);
      // The same list (a 304 of a `revalidate` API call) renders nothing again.
      setState((s) => (s.data === next ? s : { initial: s.initial, data: next }));
      setError(null);
    } catch (err) {
      if (!controller.signal.aborted) setError(err);
    } finally {
      if (controllerRef.current === controller) {
        controllerRef.current = null;
        setRefreshing(false);
      }
    }
  }, [key, persist]);

  useEffect(() => {
    if (!stale && !fromStorage) {
      lastRef.current = Date.now();
      return;
    }
    // Right after mount (not during the effect itself): paint from the cache, then refresh.
    let cancelled = false;
    const timer = window.setTimeout(() => {
      void (async () => {
        if (fromStorage) {
          const cached = await readCache(key, shapeRef.current ?? (isCacheable as Shape<T>));
          if (cancelled) return;
          // Unless a refresh has started meanwhile (its answer is newer).
          if (cached && lastRef.current === 0) setState((s) => ({ initial: s.initial, data: cached.data }));
        }
        void refresh();
      })();
    }, 0);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- fromStorage only matters on mount
  }, [stale, initial, refresh]);

  useEffect(() => {
    if (!refreshMs) return;
    const tick = () => {
      if (document.visibilityState === "visible" && Date.now() - lastRef.current >= refreshMs && !controllerRef.current) void refresh();
    };
    // A short tick, so a refresh delayed by a slow answer does not skip a whole interval.
    const id = window.setInterval(tick, Math.min(refreshMs, 1000));
    document.addEventListener("visibilitychange", tick);
    return () => {
      window.clearInterval(id);
      document.removeEventListener("visibilitychange", tick);
    };
  }, [refreshMs, refresh]);

  // A refresh still under way when a new `initial` came (the revalidation after a change) may answer with
  // the list from before the change: it is dropped.
  useEffect(() => controllerRef.current?.abort(), [initial]);

  useEffect(() => () => controllerRef.current?.abort(), []);

  // The session ended (signed out in another tab, or it expired), or the page's access or record is gone
  // (`endsOn`): the rows read before do not stay on screen; the route's error boundary (app/root.tsx) sends
  // the page to the login page, or shows the forbidden or not-found state, instead.
  if (endsPage(error, endsOn)) throw error;

  return { data, refreshing, error, refresh };
}
