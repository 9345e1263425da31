import { createContext, useContext } from "react";

/**
 * The page's script nonce (Content-Security-Policy), provided by app/entry.server.tsx while rendering on
 * the server. In the browser it is empty: browsers hide the attribute after parsing, and scripts added by
 * the client bundle are allowed as files of our own origin.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export const useNonce = () => useContext(NonceContext);

/**
 * Runs before any module: Zod compiles object parsers with `new Function` unless told not to, and the
 * page's Content-Security-Policy forbids eval (each probe would report a violation). Schemas read this
 * when they are created, so it has to be set before the first module loads; the interpreter is fast
 * enough for form validation.
 */
export const ZOD_JITLESS_SCRIPT =
  "globalThis.__zod_globalConfig=Object.assign(globalThis.__zod_globalConfig||{},{jitless:true});";
