import { loginAttempts } from "@ams/db";
import { AppError } from "@ams/shared";
import { and, desc, eq, gt, lte } from "drizzle-orm";
import type { ControlContext } from "../context.ts";
import {
  AUTHORIZATION_REQUEST_WINDOW_MS,
  AUTHORIZATION_REQUESTS_PER_WINDOW,
  REGISTRATION_WINDOW_MS,
  REGISTRATIONS_PER_WINDOW,
} from "./endpoints.ts";

/** What an anonymous caller may do a bounded number of times per address: each stores a row. */
const LIMITS = {
  register: {
    max: REGISTRATIONS_PER_WINDOW,
    windowMs: REGISTRATION_WINDOW_MS,
    refusal: "Too many client registrations from this address; try again later",
  },
  authorize: {
    max: AUTHORIZATION_REQUESTS_PER_WINDOW,
    windowMs: AUTHORIZATION_REQUEST_WINDOW_MS,
    refusal: "Too many authorization requests from this address; try again later",
  },
} as const;

/**
 * Dynamic registration and the authorization endpoint need no credentials and each stores a row, so each client
 * address may call them `max` times per `windowMs` (sliding), then gets 429 with Retry-After. Counted like failed
 * sign-ins: in the database (every control replica shares the window; the same table, its own key), the attempt
 * stored before it is counted so that parallel requests cannot slip past.
 */
export async function countPerAddress(ctx: ControlContext, what: keyof typeof LIMITS, ip: string): Promise<void> {
  const { max, windowMs, refusal } = LIMITS[what];
  const { db } = ctx.database;
  const key = `oauth-${what}:${ip}`;
  const now = ctx.clock();
  const since = new Date(now.getTime() - windowMs);
  await db.delete(loginAttempts).where(and(eq(loginAttempts.key, key), lte(loginAttempts.attemptedAt, since)));
  const [mine] = await db.insert(loginAttempts).values({ key, attemptedAt: now }).returning({ id: loginAttempts.id });
  const earlier = (
    await db
      .select({ id: loginAttempts.id, at: loginAttempts.attemptedAt })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.key, key), gt(loginAttempts.attemptedAt, since)))
      .orderBy(desc(loginAttempts.attemptedAt), desc(loginAttempts.id))
  ).filter((r) => r.id !== mine?.id);
  const oldestCounted = earlier[max - 1];
  if (!oldestCounted) return;
  if (mine) await db.delete(loginAttempts).where(eq(loginAttempts.id, mine.id));
  const retryAt = new Date(oldestCounted.at).getTime() + windowMs;
  throw new AppError("RATE_LIMITED", refusal, {
    headers: { "Retry-After": String(Math.max(1, Math.ceil((retryAt - now.getTime()) / 1000))) },
  });
}
