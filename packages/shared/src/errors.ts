/** The one error type every layer throws; each surface (HTTP, MCP, worker) maps it exactly once. */
export type ErrorCode =
  | "BAD_REQUEST"
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "GONE"
  | "PAYLOAD_TOO_LARGE"
  | "VALIDATION"
  | "RATE_LIMITED"
  | "UNAVAILABLE"
  | "INTERNAL";

export const httpStatus = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  VALIDATION: 422,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
  INTERNAL: 500,
} as const satisfies Record<ErrorCode, number>;

export const errorTitle = {
  BAD_REQUEST: "Bad request",
  UNAUTHENTICATED: "Authentication required",
  FORBIDDEN: "Forbidden",
  NOT_FOUND: "Not found",
  CONFLICT: "Conflict",
  GONE: "Gone",
  PAYLOAD_TOO_LARGE: "Payload too large",
  VALIDATION: "Validation failed",
  RATE_LIMITED: "Too many requests",
  UNAVAILABLE: "Service unavailable",
  INTERNAL: "Internal server error",
} as const satisfies Record<ErrorCode, string>;

/** One validation problem: `path` names the offending field (e.g. "properties.Owner" or "line 12"). */
export type FieldError = { path: string; message: string };

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly errors?: FieldError[];
  /** Extra response headers, e.g. Retry-After on RATE_LIMITED. */
  readonly headers?: Record<string, string>;
  constructor(
    code: ErrorCode,
    message: string,
    opts: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.errors = opts.errors;
    this.headers = opts.headers;
  }
}

export const notFound = (what: string, id: string) => new AppError("NOT_FOUND", `${what} '${id}' not found`);

export const invalid = (path: string, message: string) =>
  new AppError("VALIDATION", `${path}: ${message}`, { errors: [{ path, message }] });

/** RFC 9457 problem body; a 500 never carries the internal message. */
export type Problem = {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  errors?: FieldError[];
};

export function toProblem(err: unknown): Problem {
  if (err instanceof AppError) {
    const status = httpStatus[err.code];
    return {
      type: `https://archimate.example/problems/${err.code.toLowerCase().replaceAll("_", "-")}`,
      title: errorTitle[err.code],
      status,
      detail: err.code === "INTERNAL" ? errorTitle.INTERNAL : err.message,
      code: err.code,
      ...(err.errors ? { errors: err.errors } : {}),
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
