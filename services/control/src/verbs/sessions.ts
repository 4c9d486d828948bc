import { sessions } from "@ams/db";
import { AppError } from "@ams/shared";
import { and, desc, eq, gt } from "drizzle-orm";
import { isUuid } from "../gateway/resolve.ts";
import { listProviders } from "../session/providers.ts";
import type { SessionList, SignInProviders } from "../session/schemas.ts";
import type { PublicContext, SignedInContext } from "./context.ts";

/** The OAuth/OIDC providers the sign-in page offers (session profile). */
export function listSignInProviders({ ctx }: { ctx: PublicContext }): SignInProviders {
  return { providers: listProviders(ctx.env) };
}

/** The caller's live sessions, newest first, without their tokens; the session of this request is marked. */
export async function listSessions({ ctx }: { ctx: SignedInContext }): Promise<SessionList> {
  const rows = await ctx.database.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, ctx.principal.userId), gt(sessions.expiresAt, ctx.clock())))
    .orderBy(desc(sessions.createdAt));
  return {
    sessions: rows.map((s) => ({
      id: s.id,
      created_at: s.createdAt.toISOString(),
      expires_at: s.expiresAt.toISOString(),
      ip_address: s.ipAddress,
      user_agent: s.userAgent,
      current: s.id === ctx.principal.sessionId,
    })),
  };
}

/**
 * Ends one of the caller's sessions (another device, or this one); 404 for anyone else's. This process forgets the
 * caller's cached session lookups at once; other replicas within SESSION_CACHE_SECONDS.
 */
export async function revokeSession({ ctx, input }: { ctx: SignedInContext; input: { id: string } }): Promise<void> {
  const deleted = isUuid(input.id)
    ? await ctx.database.db
        .delete(sessions)
        .where(and(eq(sessions.id, input.id), eq(sessions.userId, ctx.principal.userId)))
        .returning({ id: sessions.id })
    : [];
  if (deleted.length === 0) throw new AppError("NOT_FOUND", "Session not found");
  ctx.session?.lookup.forgetUser(ctx.principal.userId);
}
