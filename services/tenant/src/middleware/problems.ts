import { AppError, type FieldError, toProblem } from "@ams/shared";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ZodError } from "zod";

export function problemResponse(err: unknown, log?: (err: unknown) => void): Response {
  let appError = err;
  if (err instanceof HTTPException) {
    const code = err.status === 413 ? "PAYLOAD_TOO_LARGE" : err.status === 401 ? "UNAUTHENTICATED" : "BAD_REQUEST";
    const message =
      err.status === 413 ? "Request body is larger than this route accepts" : err.message || "Malformed request";
    appError = new AppError(code, message);
  }
  const problem = toProblem(appError);
  // Only what the service itself failed at is logged: refusals the request caused (including the database's,
  // mapped by toProblem) are the caller's to read in the answer.
  if (problem.status === 500) log?.(err);
  const headers: Record<string, string> = { "content-type": "application/problem+json" };
  if (appError instanceof AppError && appError.headers) Object.assign(headers, appError.headers);
  return new Response(JSON.stringify(problem), { status: problem.status, headers });
}

/** zod failures of params, query or body: 422 with each offending field path. */
export function problemFromZod(result: { success: boolean; error?: ZodError; target?: string }, _c: Context) {
  if (result.success || !result.error) return;
  const where = result.target === "json" ? "" : `${result.target ?? "input"}.`;
  const errors: FieldError[] = result.error.issues.map((i) => {
    const keys = i.code === "unrecognized_keys" ? ` (${i.keys.join(", ")})` : "";
    return { path: `${where}${i.path.join(".") || "(root)"}`, message: `${i.message}${keys}` };
  });
  return problemResponse(
    new AppError("VALIDATION", errors.map((e) => `${e.path}: ${e.message}`).join("; "), { errors }),
  );
}
