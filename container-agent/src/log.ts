/** JSON-lines logging to stdout (info) and stderr (warn, error); tests pass their own Logger. */
export type LogFields = Record<string, unknown>;

export interface Logger {
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
}

export type LogLevel = "info" | "warn" | "error" | "silent";
const ORDER: Record<LogLevel, number> = { info: 0, warn: 1, error: 2, silent: 3 };

export function consoleLogger(level: LogLevel = "info"): Logger {
  const write = (at: Exclude<LogLevel, "silent">, event: string, fields: LogFields = {}) => {
    if (ORDER[at] < ORDER[level]) return;
    const line = JSON.stringify({ time: new Date().toISOString(), level: at, event, ...fields });
    if (at === "info") process.stdout.write(`${line}\n`);
    else process.stderr.write(`${line}\n`);
  };
  return {
    info: (event, fields) => write("info", event, fields),
    warn: (event, fields) => write("warn", event, fields),
    error: (event, fields) => write("error", event, fields),
  };
}

/** Keeps entries in memory (tests) and optionally forwards them. */
export class MemoryLogger implements Logger {
  readonly entries: { level: string; event: string; fields: LogFields }[] = [];
  info(event: string, fields: LogFields = {}) {
    this.entries.push({ level: "info", event, fields });
  }
  warn(event: string, fields: LogFields = {}) {
    this.entries.push({ level: "warn", event, fields });
  }
  error(event: string, fields: LogFields = {}) {
    this.entries.push({ level: "error", event, fields });
  }
  find(event: string) {
    return this.entries.filter((entry) => entry.event === event);
  }
}
