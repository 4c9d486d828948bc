import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { AppError } from "../errors.ts";

/** The 413 every service answers for a body over its limit, naming the limit. */
export const bodyTooLarge = (limit: number) =>
  new AppError("PAYLOAD_TOO_LARGE", `Request body exceeds the limit of ${limit} bytes`);

/**
 * Refuses a request body larger than `maxBytes` with 413 (as it streams: the rest is never read). The answer carries
 * `Connection: close` once served through closeAfterRefusedBody.
 */
export function limitBody(maxBytes: number): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw bodyTooLarge(maxBytes);
    },
  });
}
