/**
 * The one logger shape of every service: structured JSON lines, one object per line, with `time`, `level`,
 * `service`, `msg` and whatever fields the caller adds (`request_id`, `err`, ...). Errors are written to stderr,
 * everything else to stdout, so a container runtime keeps both and a log shipper can parse every line.
 */
export type LogLevel = "info" | "warn" | "error";

/** Extra fields of one line; `err` (anything thrown) is written as {name, message, code?, stack}. */
export type LogFields = Record<string, unknown> & { err?: unknown };

export type Logger = {
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger whose lines all carry `fields` as well (e.g. the request id). */
  child(fields: LogFields): Logger;
};

export type LogRecord = { time: string; level: LogLevel; service: string; msg: string } & Record<string, unknown>;

export type LoggerOptions = {
  service: string;
  /** Where a finished line goes; defaults to stdout (stderr for errors). */
  write?: (line: string, level: LogLevel) => void;
  clock?: () => Date;
};

const writeStd = (line: string, level: LogLevel) => {
  (level === "error" ? process.stderr : process.stdout).write(`${line}\n`);
};

export function createLogger(opts: LoggerOptions, bound: LogFields = {}): Logger {
  const write = opts.write ?? writeStd;
  const clock = opts.clock ?? (() => new Date());
  const emit = (level: LogLevel, msg: string, fields?: LogFields) => {
    const record: Record<string, unknown> = { time: clock().toISOString(), level, service: opts.service, msg };
    for (const [key, value] of Object.entries({ ...bound, ...fields })) {
      if (value !== undefined) record[key] = key === "err" ? describeError(value) : value;
    }
    write(safeStringify(record), level);
  };
  return {
    info: (msg, fields) => emit("info", msg, fields),
    warn: (msg, fields) => emit("warn", msg, fields),
    error: (msg, fields) => emit("error", msg, fields),
    child: (fields) => createLogger(opts, { ...bound, ...fields }),
  };
}

/** A logger that drops every line (tests that do not look at logs). */
export const silentLogger: Logger = { info() {}, warn() {}, error() {}, child: () => silentLogger };

/** The logger of a test harness: silent unless TEST_LOG is set, then JSON lines as in production. */
export const testLogger = (service: string): Logger =>
  process.env.TEST_LOG ? createLogger({ service }) : silentLogger;

/** A logger that keeps its records in memory, for tests that assert what was logged. */
export function memoryLogger(service = "test"): Logger & { records: LogRecord[] } {
  const records: LogRecord[] = [];
  const logger = createLogger({ service, write: (line) => records.push(JSON.parse(line) as LogRecord) });
  return Object.assign(logger, { records });
}

function describeError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const code = (err as { code?: unknown }).code;
  const cause = err.cause === undefined ? undefined : describeError(err.cause);
  return {
    name: err.name,
    message: err.message,
    ...(code === undefined ? {} : { code }),
    ...(err.stack ? { stack: err.stack } : {}),
    ...(cause === undefined ? {} : { cause }),
  };
}

/** JSON.stringify that never throws: a bigint becomes a string, a cycle becomes "[circular]". */
function safeStringify(record: Record<string, unknown>): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(record, (_key, value: unknown) => {
    if (typeof value === "bigint") return value.toString();
    if (value && typeof value === "object") {
      if (seen.has(value)) return "[circular]";
      seen.add(value);
    }
    return value;
  });
}
