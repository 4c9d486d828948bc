import { AppError, type FieldError, toProblem } from "@ams/shared";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ZodError } from "zod";

export type Logger = { error(message: string, err?: unknown): void };

/** One AppError (or anything else) -> application/problem+json. A 500 never echoes the internal message. */
export function problemResponse(err: unknown, log?: Logger): Response {
  const mapped = err instanceof HTTPException && !(err instanceof AppError) ? fromHttpException(err) : err;
  const problem = toProblem(mapped);
  if (problem.status >= 500 && !(mapped instanceof AppError && mapped.code === "UNAVAILABLE")) {
    log?.error("unhandled error", err);
  }
  const headers = new Headers({ "content-type": "application/problem+json" });
  if (mapped instanceof AppError && mapped.headers) {
    for (const [name, value] of Object.entries(mapped.headers)) headers.set(name, value);
  }
  return new Response(JSON.stringify(problem), { status: problem.status, headers });
}

function fromHttpException(err: HTTPException): AppError {
  if (err.status === 401) return new AppError("UNAUTHENTICATED", "Authentication required");
  if (err.status === 413) return new AppError("PAYLOAD_TOO_LARGE", "Payload too large");
  if (err.status >= 400 && err.status < 500) return new AppError("BAD_REQUEST", "Malformed request");
  return new AppError("INTERNAL", err.message);
}

export function validationError(error: ZodError): AppError {
  const errors: FieldError[] = error.issues.map((issue) => ({
    path: issue.path.map(String).join(".") || "(body)",
    message: issue.message,
  }));
  return new AppError("VALIDATION", errors.map((e) => `${e.path}: ${e.message}`).join("; "), { errors });
}

/** The OpenAPIHono defaultHook: a failed zod validation becomes a 422 problem. */
export function problemFromZod(result: { success: boolean; error?: ZodError }, _c: Context): Response | undefined {
  if (!result.success && result.error) return problemResponse(validationError(result.error));
  return undefined;
}
