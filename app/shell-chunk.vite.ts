import { resolve } from "node:path";
import type { Rolldown } from "vite";

/**
 * A browser code-splitting group: the app's own modules that the given entries (the root route and the
 * client entry) import statically, directly or not. Every page runs them, so one chunk costs no page any
 * extra bytes and gzips smaller than the dozen small chunks the automatic split makes of them
 * (BENCHMARKS.md, first-load JS). Libraries, styles and virtual modules keep their own chunks.
 */
export function shellChunk(entries: string[]) {
  let shell: Set<string> | null = null;
  return (id: string, ctx: Rolldown.ChunkingContext): string | null => {
    shell ??= staticClosure(entries.map((entry) => resolve(entry)), ctx);
    return shell.has(id) ? "shell" : null;
  };
}

function staticClosure(entries: string[], ctx: Rolldown.ChunkingContext): Set<string> {
  const closure = new Set<string>();
  const stack = entries.flatMap((entry) => {
    const info = ctx.getModuleInfo(entry);
    if (!info) throw new Error(`shell chunk: ${entry} is not in the browser build`);
    return info.importedIds;
  });
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (closure.has(id) || !isOwnScript(id)) continue;
    closure.add(id);
    stack.push(...(ctx.getModuleInfo(id)?.importedIds ?? []));
  }
  return closure;
}

function isOwnScript(id: string): boolean {
  return !id.startsWith("\0") && !id.includes("?") && !/[\\/]node_modules[\\/]/.test(id) && /\.[cm]?[jt]sx?$/.test(id);
}
