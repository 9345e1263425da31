import type { ErrorBody } from "~/core/errors";
import { BODY_LIMITS, type BodyKind, bodyTooLarge, declaredLength, DRAIN_MAX, DRAIN_MS, dropWithin, LINGER_MS, needsLinger, readWithin } from "~/core/http/body-limit";
import { languageFromAcceptLanguage } from "~/core/i18n/languages";
import { getTranslator } from "~/core/i18n/translator";
import type { ApiContext } from "./context";

/**
 * A route's body cap (app/core/http/body-limit.ts), in two steps around the auth guard (registry.ts), and
 * the lingering close that gets a refusal to a client still sending (workers/app.ts).
 *
 * Not Hono's `bodyLimit`: past the cap it leaves the stream locked by its own reader, so the rest can
 * neither be dropped nor cancelled. The declared check is the same.
 */

/** Before anything else: a declared length over the cap is refused at once, with nothing read. */
export function refuseDeclaredOversize(c: ApiContext, kind: BodyKind): void {
  const length = declaredLength(c.req.raw.headers);
  if (length !== null && length > BODY_LIMITS[kind]) throw bodyTooLarge(kind);
}

/**
 * After the guard: a body without a declared length (chunked) is read with a running count and the
 * request gets it back whole; past the cap the request is refused and the rest left to `lingerOnUnreadBody`.
 */
export async function holdUndeclaredBody(c: ApiContext, kind: BodyKind): Promise<void> {
  const raw = c.req.raw;
  if (!raw.body || declaredLength(raw.headers) !== null) return;
  const chunks = await readWithin(raw.body, BODY_LIMITS[kind]);
  if (!chunks) throw bodyTooLarge(kind);
  // The chunks as they came: no second copy of the body.
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  c.req.raw = new Request(raw, { body });
}

/**
 * Outside /api (pages, sockets, files, the launcher's bootstrap) no body is read today: React Router
 * has client actions only and answers a POST 405 unread. A declared body over `json`'s cap is still
 * refused at the entry, so a server action added later does not read an unbounded one.
 */
export function refuseOversizeOutsideApi(request: Request): Response | null {
  const length = declaredLength(request.headers);
  if (length === null || length <= BODY_LIMITS.json) return null;
  const error = bodyTooLarge("json");
  const t = getTranslator(languageFromAcceptLanguage(request.headers.get("accept-language")));
  const body: ErrorBody = { title: t(error.code, error.params), status: error.status };
  return Response.json(body, { status: error.httpStatus });
}

/**
 * An error answered before a large body was read (a refusal over the cap, a 401, a page's 405). A rest of
 * up to DRAIN_MAX is read and dropped first, so the client's connection stays open: a keep-alive client
 * sends its next request on it at once, and a connection closed under it loses that request. A larger
 * rest gets a lingering close: the answer goes out at once, with its length, and the connection is held
 * for LINGER_MS with the body unread before it is cancelled and the runtime closes. Closing at once on
 * unread bytes resets the connection, and a reset makes clients drop an answer they had not read yet:
 * through the `npm start` front (scripts/lib/socket-relay.mjs) 6 refusals of 6 were lost that way.
 */
export async function lingerOnUnreadBody(request: Request, response: Response, ctx: ExecutionContext): Promise<Response> {
  if (response.status < 400) return response;
  const body = request.body;
  if (!body || body.locked || !needsLinger(request.headers)) return response;
  // Up to DRAIN_MAX the rest is read and dropped first: the connection then stays open for the next request.
  const length = declaredLength(request.headers);
  let cancel = () => body.cancel();
  if (length === null || length <= DRAIN_MAX) {
    const reader = body.getReader();
    if (await dropWithin(reader, DRAIN_MAX, DRAIN_MS)) return response;
    cancel = () => reader.cancel();
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  // The answer's body is what holds the connection: an empty answer holds nothing.
  if (bytes.byteLength === 0) return new Response(null, response);
  const { readable, writable } = new FixedLengthStream(bytes.byteLength);
  const writer = writable.getWriter();
  ctx.waitUntil(
    (async () => {
      await writer.write(bytes);
      await new Promise((done) => setTimeout(done, LINGER_MS));
      await cancel().catch(() => undefined);
      await writer.close();
    })().catch(() => undefined),
  );
  return new Response(readable, response);
}
