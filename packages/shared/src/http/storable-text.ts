import type { MiddlewareHandler } from "hono";
import { assertStorableText } from "../input-hygiene.ts";

/** PostgreSQL cannot store NUL in text: refuse it up front with a 422 naming the field (URL and JSON bodies). */
export function refuseUnstorableText(): MiddlewareHandler {
  return async (c, next) => {
    await assertStorableText(c.req.raw);
    await next();
  };
}
