import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ZodError } from "zod";
import { AppError, type FieldError, toProblem } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { zodFieldErrors } from "../zod-errors.ts";
import { etagOf } from "./etag.ts";

/**
 * One error (AppError, a database refusal, Hono's HTTPException or anything else) as application/problem+json.
 * Only what the service itself failed at (500) is logged: refusals the request caused are the caller's to read in
 * the answer. A 500 never echoes the internal message.
 */
export function problemResponse(err: unknown, log?: Logger): Response {
  const mapped = err instanceof HTTPException ? fromHttpException(err) : err;
  // A stale If-Match: the answer is the object as it is now (its own schema) with its ETag, ready to merge and resend.
  if (mapped instanceof AppError && mapped.code === "PRECONDITION_FAILED" && mapped.current) {
    return new Response(JSON.stringify(mapped.current), {
      status: 412,
      headers: { "content-type": "application/json", etag: etagOf(mapped.current.revision) },
    });
  }
  const problem = toProblem(mapped);
  if (problem.status === 500) log?.error("unhandled error", { err });
  const headers = new Headers({ "content-type": "application/problem+json" });
  if (mapped instanceof AppError && mapped.headers) {
    for (const [name, value] of Object.entries(mapped.headers)) headers.set(name, value);
  }
  return new Response(JSON.stringify(problem), { status: problem.status, headers });
}

/** Hono's own refusals (a malformed JSON body, its body limit) in the AppError vocabulary. */
function fromHttpException(err: HTTPException): AppError {
  if (err.status === 401) return new AppError("UNAUTHENTICATED", err.message || "Authentication required");
  if (err.status === 413) return new AppError("PAYLOAD_TOO_LARGE", "Request body is larger than this route accepts");
  if (err.status >= 400 && err.status < 500) return new AppError("BAD_REQUEST", err.message || "Malformed request");
  return new AppError("INTERNAL", err.message);
}

/**
 * A zod failure as the 422 every surface answers: one entry per issue, its path prefixed with where it was found
 * ("query.limit", "param.id"; body fields bare), unknown keys named; capped (zodFieldErrors) so that thousands of bad
 * keys make a short answer.
 */
export function validationError(error: ZodError, target?: string): AppError {
  const where = target === undefined || target === "json" ? "" : `${target}.`;
  const errors: FieldError[] = zodFieldErrors(error, where);
  return new AppError("VALIDATION", errors.map((e) => `${e.path}: ${e.message}`).join("; "), { errors });
}

/** The OpenAPIHono defaultHook: a failed validation of params, query or body becomes a 422 problem. */
export function problemFromZod(
  result: { success: boolean; error?: ZodError; target?: string },
  _c: Context,
): Response | undefined {
  if (result.success || !result.error) return undefined;
  return problemResponse(validationError(result.error, result.target));
}
