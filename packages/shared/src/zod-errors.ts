import type { ZodError } from "zod";
import type { FieldError } from "./errors.ts";

/** At most this many problems are listed in one answer, and at most this many keys of one unknown-keys problem. */
export const MAX_LISTED_ISSUES = 20;
export const MAX_LISTED_KEYS = 20;

/** "a, b, c and 4,980 more": a long list cut to its first items. */
export function capList(items: readonly string[], max: number): string {
  const shown = items.slice(0, max).join(", ");
  const rest = items.length - max;
  return rest > 0 ? `${shown} and ${rest.toLocaleString("en-US")} more` : shown;
}

/**
 * A zod failure as field errors a person can read: each path with its message, unknown keys named (at most
 * MAX_LISTED_KEYS of them), at most MAX_LISTED_ISSUES problems and a last line saying how many more there were, so
 * that a body with thousands of bad keys does not make an answer of megabytes.
 */
export function zodFieldErrors(error: ZodError, prefix = ""): FieldError[] {
  const errors: FieldError[] = error.issues.slice(0, MAX_LISTED_ISSUES).map((i) => {
    const path = `${prefix}${i.path.join(".") || "(root)"}`;
    if (i.code === "unrecognized_keys") {
      const noun =
        i.keys.length === 1 ? "Unrecognized key" : `${i.keys.length.toLocaleString("en-US")} unrecognized keys`;
      return { path, message: `${noun} (${capList(i.keys, MAX_LISTED_KEYS)})` };
    }
    return { path, message: i.message };
  });
  const more = error.issues.length - errors.length;
  if (more > 0) errors.push({ path: `${prefix}(root)`, message: `and ${more.toLocaleString("en-US")} more problems` });
  return errors;
}
