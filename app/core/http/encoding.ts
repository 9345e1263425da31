import { negotiate } from "@fastify/accept-negotiator";

/**
 * Content coding of a response body (RFC 9110 §12.5.3): gzip when the client's Accept-Encoding allows
 * it, else the body as is. Used for the scoreboard, whose body is the largest the API sends (≈ 320 kB for
 * a first page and 4.4 MB whole at 1,000 teams, ≈ 10× smaller gzipped); on Cloudflare the edge would
 * compress, under `npm start` nothing else does.
 */
export type BodyCoding = "gzip" | "identity";

export function bodyCodingFor(acceptEncoding: string | null | undefined): BodyCoding {
  if (!acceptEncoding) return "identity";
  // Codings are case-insensitive (RFC 9110 §8.4.1); the negotiator compares exactly.
  return negotiate(acceptEncoding.toLowerCase(), ["gzip", "identity"]) === "gzip" ? "gzip" : "identity";
}

/** Gzips a byte stream with the platform's CompressionStream (Workers, browsers and Node alike). */
export function gzipStream(stream: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  return stream.pipeThrough(new CompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>);
}

/** Gzips bytes (a cached response body). */
export async function gzipBytes(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await new Response(gzipStream(new Blob([bytes]).stream())).arrayBuffer());
}
