/** The one error type every layer throws; each surface (HTTP, MCP, worker) maps it exactly once. */
export type ErrorCode =
  | "BAD_REQUEST"
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  /** The organization requires two-factor and the caller's browser session has none: enrol first. */
  | "TWO_FACTOR_REQUIRED"
  | "NOT_FOUND"
  | "CONFLICT"
  /**
   * The object changed since the caller read it (a stale If-Match, or MCP's expected_revision): the error carries the
   * object as it is now (`current`), so the caller can merge instead of overwriting.
   */
  | "PRECONDITION_FAILED"
  | "GONE"
  | "PAYLOAD_TOO_LARGE"
  /** A body of a content type the route does not take (an import sent as text/plain). */
  | "UNSUPPORTED_MEDIA_TYPE"
  | "VALIDATION"
  | "RATE_LIMITED"
  | "UNAVAILABLE"
  | "INTERNAL";

export const httpStatus = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  TWO_FACTOR_REQUIRED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION: 422,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
  INTERNAL: 500,
} as const satisfies Record<ErrorCode, number>;

export const errorTitle = {
  BAD_REQUEST: "Bad request",
  UNAUTHENTICATED: "Authentication required",
  FORBIDDEN: "Forbidden",
  TWO_FACTOR_REQUIRED: "Two-factor authentication required",
  NOT_FOUND: "Not found",
  CONFLICT: "Conflict",
  PRECONDITION_FAILED: "Precondition failed",
  GONE: "Gone",
  PAYLOAD_TOO_LARGE: "Payload too large",
  UNSUPPORTED_MEDIA_TYPE: "Unsupported media type",
  VALIDATION: "Validation failed",
  RATE_LIMITED: "Too many requests",
  UNAVAILABLE: "Service unavailable",
  INTERNAL: "Internal server error",
} as const satisfies Record<ErrorCode, string>;

/** One validation problem: `path` names the offending field (e.g. "properties.Owner" or "line 12"). */
export type FieldError = { path: string; message: string };

/** The surface a caller used: error texts point it to what it can call (a REST route, or an MCP tool/resource). */
export type Surface = "rest" | "mcp";

/** Where a caller finds what an error refers to, worded for each surface. */
export const POINTERS = {
  elementTypes: {
    rest: "GET /api/elements/types for those in use",
    mcp: "list_metamodel_element_types, or resource archimate://layers",
  },
  viewpoints: { rest: "GET /api/viewpoints", mcp: "list_viewpoints" },
  activateWorkspace: {
    rest: "POST /api/workspaces/:id/activate",
    mcp: "activate_workspace (list_workspaces names them), or pass workspace_id to the tool",
  },
  graphRebuild: { rest: "POST /api/export/neo4j", mcp: "rebuild_graph" },
  propertyDefinitions: { rest: "GET /api/property-definitions", mcp: "list_property_definitions" },
} as const satisfies Record<string, Record<Surface, string>>;

export type Pointer = keyof typeof POINTERS;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly errors?: FieldError[];
  /** Extra response headers, e.g. Retry-After on RATE_LIMITED. */
  readonly headers?: Record<string, string>;
  /** What to look at next; toProblem words it for the caller's surface (" (see ...)" after the message). */
  readonly see?: Pointer;
  /** The message without its pointer. */
  readonly bare: string;
  /** PRECONDITION_FAILED: the object as it is now (REST answers it as the 412 body, MCP in the tool error). */
  readonly current?: { revision: number };
  constructor(
    code: ErrorCode,
    message: string,
    opts: {
      errors?: FieldError[];
      headers?: Record<string, string>;
      see?: Pointer;
      current?: { revision: number };
    } = {},
  ) {
    super(opts.see ? `${message} (see ${POINTERS[opts.see].rest})` : message);
    this.name = "AppError";
    this.code = code;
    this.errors = opts.errors;
    this.headers = opts.headers;
    this.see = opts.see;
    this.bare = message;
    this.current = opts.current;
  }
}

export const notFound = (what: string, id: string) => new AppError("NOT_FOUND", `${what} '${id}' not found`);

export const invalid = (path: string, message: string, see?: Pointer) =>
  new AppError("VALIDATION", `${path}: ${message}`, { errors: [{ path, message }], see });

/** RFC 9457 problem body; a 500 never carries the internal message. */
/**
 * A value that must exist at this point: the row an INSERT ... RETURNING gives back, an entry put in a map just
 * before. Its absence is a defect (or a concurrent delete the caller did not lock against), answered as INTERNAL
 * naming what was missing instead of a TypeError on `undefined` further on. Not for what a caller may ask for and
 * not find: that is NOT_FOUND, said where the lookup is.
 */
export function mustExist<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null) throw new AppError("INTERNAL", `${what} is missing`);
  return value;
}

/** The first row of a statement that answers exactly one (INSERT ... RETURNING); INTERNAL naming `what` if none. */
export function first<T>(rows: readonly T[], what: string): T {
  return mustExist(rows[0], what);
}

export type Problem = {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  errors?: FieldError[];
};

/** The problem body of an error, its pointer (if any) worded for the caller's surface. */
export function toProblem(err: unknown, surface: Surface = "rest"): Problem {
  if (!(err instanceof AppError)) {
    const mapped = fromDatabaseError(err);
    if (mapped) err = mapped;
  }
  if (err instanceof AppError) {
    const status = httpStatus[err.code];
    const see = err.see ? ` (see ${POINTERS[err.see][surface]})` : "";
    const only = err.errors?.length === 1 ? err.errors[0] : undefined;
    const errors = see && only ? [{ ...only, message: only.message + see }] : err.errors;
    return {
      type: `https://archimate.example/problems/${err.code.toLowerCase().replaceAll("_", "-")}`,
      title: errorTitle[err.code],
      status,
      detail: err.code === "INTERNAL" ? errorTitle.INTERNAL : err.bare + see,
      code: err.code,
      ...(errors ? { errors } : {}),
    };
  }
  return {
    type: "https://archimate.example/problems/internal",
    title: errorTitle.INTERNAL,
    status: 500,
    detail: "An unexpected error occurred",
    code: "INTERNAL",
  };
}

/** The fields PostgreSQL errors carry, as postgres.js (`constraint_name`) and PGlite (`constraint`) name them. */
type PgErrorLike = {
  code: string;
  message: string;
  constraint_name?: string;
  constraint?: string;
  table_name?: string;
  table?: string;
};

function pgError(err: unknown): PgErrorLike | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return e as PgErrorLike;
  }
  return undefined;
}

/** What a foreign key protects, in words a user understands, by the table whose insert or update it refused. */
const MISSING_REFERENCE: Record<string, string> = {
  view_nodes: "The element (or parent node) this node refers to does not exist: it may have been deleted meanwhile",
  connections: "The relationship this connection draws does not exist: it may have been deleted meanwhile",
  property_values: "The property definition this value uses does not exist: it may have been deleted meanwhile",
};

/**
 * A database refusal that the request caused (a race with a delete, a value PostgreSQL cannot store) as the
 * AppError a user can act on; undefined for anything else, which stays an internal error. Every surface maps
 * errors through toProblem, so this is the one place these codes are translated.
 */
export function fromDatabaseError(err: unknown): AppError | undefined {
  const pg = pgError(err);
  if (!pg) return undefined;
  const constraint = pg.constraint_name ?? pg.constraint ?? "";
  const table = pg.table_name ?? pg.table ?? "";
  switch (pg.code) {
    case "23503":
      // Our own endpoint triggers word their message for the user; PostgreSQL's foreign keys do not.
      if (constraint === "relationships_endpoints_exist") return new AppError("CONFLICT", pg.message);
      return new AppError(
        "CONFLICT",
        MISSING_REFERENCE[table] ??
          "An object this request refers to does not exist: it may have been deleted meanwhile",
      );
    case "23505":
      return new AppError("CONFLICT", "An object with this identifier already exists");
    case "40001":
    case "40P01":
      return new AppError("CONFLICT", "A concurrent change conflicted with this request; retry it", {
        headers: { "Retry-After": "1" },
      });
    case "22021":
    case "22P05":
      return new AppError("VALIDATION", "Text must not contain NUL characters (\\u0000)");
    case "54000":
    case "22001":
      return new AppError("VALIDATION", "A value is longer than can be stored; shorten identifiers and names");
    default:
      return undefined;
  }
}
