/** An error the HTTP layer answers with `status` and `{error: code, message}`. */
export class AgentError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export const badRequest = (code: string, message: string) => new AgentError(400, code, message);
export const notFound = (code: string, message: string) => new AgentError(404, code, message);
export const unavailable = (code: string, message: string) => new AgentError(503, code, message);

/** The HTTP status of a Docker Engine API error, if it is one. */
export function dockerStatus(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === "number" ? status : undefined;
}

export function describe(error: unknown): string {
  if (error instanceof Error) {
    const json = (error as { json?: { message?: string } }).json;
    return json?.message ?? error.message;
  }
  return String(error);
}
