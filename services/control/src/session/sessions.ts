import { type Database, sessions } from "@ams/db";
import { AppError } from "@ams/shared";
import { and, desc, eq, gt } from "drizzle-orm";
import type { Principal } from "../auth/principal.ts";

export type SessionSummary = {
  id: string;
  created_at: string;
  expires_at: string;
  ip_address: string | null;
  user_agent: string | null;
  current: boolean;
};

/** The caller's live sessions, newest first, without their tokens. */
export async function listSessions(database: Database, caller: Principal, now: Date): Promise<SessionSummary[]> {
  const rows = await database.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, caller.userId), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.createdAt));
  return rows.map((s) => ({
    id: s.id,
    created_at: s.createdAt.toISOString(),
    expires_at: s.expiresAt.toISOString(),
    ip_address: s.ipAddress,
    user_agent: s.userAgent,
    current: s.id === caller.sessionId,
  }));
}

/** Ends one of the caller's sessions (another device, or this one). 404 for anyone else's. */
export async function revokeSession(database: Database, caller: Principal, sessionId: string): Promise<void> {
  const deleted = await database.db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, caller.userId)))
    .returning({ id: sessions.id });
  if (deleted.length === 0) throw new AppError("NOT_FOUND", "Session not found");
}
