import { loginAttempts } from "@ams/db";
import { AppError } from "@ams/shared";
import { and, desc, eq, gt, lte } from "drizzle-orm";
import type { ControlContext } from "../context.ts";
import { REGISTRATION_WINDOW_MS, REGISTRATIONS_PER_WINDOW } from "./endpoints.ts";

/**
 * Dynamic registration needs no credentials, so each client address may register REGISTRATIONS_PER_WINDOW clients
 * per REGISTRATION_WINDOW_MS (sliding), then gets 429 with Retry-After. Counted like failed sign-ins: in the database
 * (every control replica shares the window; the same table, its own key), the attempt stored before it is counted
 * so that parallel requests cannot slip past.
 */
export async function countRegistration(ctx: ControlContext, ip: string): Promise<void> {
  const { db } = ctx.database;
  const key = `oauth-register:${ip}`;
  const now = ctx.clock();
  const since = new Date(now.getTime() - REGISTRATION_WINDOW_MS);
  await db.delete(loginAttempts).where(and(eq(loginAttempts.key, key), lte(loginAttempts.attemptedAt, since)));
  const [mine] = await db.insert(loginAttempts).values({ key, attemptedAt: now }).returning({ id: loginAttempts.id });
  const earlier = (
    await db
      .select({ id: loginAttempts.id, at: loginAttempts.attemptedAt })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.key, key), gt(loginAttempts.attemptedAt, since)))
      .orderBy(desc(loginAttempts.attemptedAt), desc(loginAttempts.id))
  ).filter((r) => r.id !== mine?.id);
  const oldestCounted = earlier[REGISTRATIONS_PER_WINDOW - 1];
  if (!oldestCounted) return;
  if (mine) await db.delete(loginAttempts).where(eq(loginAttempts.id, mine.id));
  const retryAt = new Date(oldestCounted.at).getTime() + REGISTRATION_WINDOW_MS;
  throw new AppError("RATE_LIMITED", "Too many client registrations from this address; try again later", {
    headers: { "Retry-After": String(Math.max(1, Math.ceil((retryAt - now.getTime()) / 1000))) },
  });
}
