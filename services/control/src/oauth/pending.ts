import { createHmac, timingSafeEqual } from "node:crypto";
import { oauthClients, oauthRequests } from "@ams/db";
import { AppError } from "@ams/shared";
import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { randomSecret, sha256Hex } from "../auth/secrets.ts";
import type { ControlContext } from "../context.ts";
import { REQUEST_TTL_MS } from "./endpoints.ts";
import type { CheckedRequest } from "./request.ts";

type Ok = Extract<CheckedRequest, { kind: "ok" }>;
type Db = ControlContext["database"]["db"];

/**
 * Stores a checked authorization request until the user decides on the consent page, and answers its handle: the
 * only thing the browser carries. What the decision acts on (client, redirect URI, PKCE challenge, state) is read
 * back from here, never from the browser.
 */
export async function createPendingRequest(ctx: ControlContext, r: Ok): Promise<string> {
  const handle = randomSecret(32);
  const now = ctx.clock();
  await ctx.database.db.delete(oauthRequests).where(lt(oauthRequests.expiresAt, new Date(now.getTime() - 86_400_000)));
  await ctx.database.db.insert(oauthRequests).values({
    handleHash: sha256Hex(handle),
    clientId: r.clientId,
    redirectUri: r.redirectUri,
    codeChallenge: r.codeChallenge,
    state: r.state ?? null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + REQUEST_TTL_MS),
  });
  return handle;
}

const GONE = {
  decided: "This authorization request was already answered. Start again from your MCP client.",
  expired: "This authorization request has expired. Start again from your MCP client.",
};
const UNKNOWN = "This authorization request is unknown. Start again from your MCP client.";

/**
 * The pending request behind a handle, claimed by the signed-in user who opens it first: from then on it is theirs
 * alone, and anyone else gets 404 (as for a handle that never existed). Answered or expired requests are 410.
 */
export async function claimPendingRequest(ctx: ControlContext, handle: string, userId: string) {
  const [row] = await ctx.database.db
    .update(oauthRequests)
    .set({ userId: sql`coalesce(${oauthRequests.userId}, ${userId})` })
    .where(
      and(
        eq(oauthRequests.handleHash, sha256Hex(handle)),
        or(isNull(oauthRequests.userId), eq(oauthRequests.userId, userId)),
      ),
    )
    .returning();
  if (!row) throw new AppError("NOT_FOUND", UNKNOWN);
  if (row.decidedAt) throw new AppError("GONE", GONE.decided);
  if (row.expiresAt.getTime() <= ctx.clock().getTime()) throw new AppError("GONE", GONE.expired);
  const [client] = await ctx.database.db.select().from(oauthClients).where(eq(oauthClients.clientId, row.clientId));
  if (!client) throw new AppError("NOT_FOUND", UNKNOWN);
  return { request: row, client };
}

/**
 * Marks the user's pending request answered, once: a second decision (a double click, a replayed request) finds
 * nothing. The request must have been opened by this user first (claimPendingRequest).
 */
export async function consumePendingRequest(tx: Db, handle: string, userId: string, now: Date) {
  const hash = sha256Hex(handle);
  const [row] = await tx
    .update(oauthRequests)
    .set({ decidedAt: now })
    .where(
      and(
        eq(oauthRequests.handleHash, hash),
        eq(oauthRequests.userId, userId),
        isNull(oauthRequests.decidedAt),
        gt(oauthRequests.expiresAt, now),
      ),
    )
    .returning();
  if (row) return row;
  const [seen] = await tx
    .select()
    .from(oauthRequests)
    .where(and(eq(oauthRequests.handleHash, hash), eq(oauthRequests.userId, userId)));
  if (!seen) throw new AppError("NOT_FOUND", UNKNOWN);
  throw new AppError("GONE", seen.decidedAt ? GONE.decided : GONE.expired);
}

/**
 * The consent page's anti-forgery value: an HMAC of the user and the request, answered only in the JSON a
 * same-origin script reads. A cross-site page can make a browser post, but cannot learn this value.
 */
export function consentToken(ctx: ControlContext, userId: string, handle: string): string {
  return createHmac("sha256", ctx.env.AUTH_JWT_SECRET)
    .update(["oauth-consent", userId, sha256Hex(handle)].join("\n"))
    .digest("base64url");
}

export function consentTokenMatches(ctx: ControlContext, userId: string, handle: string, given: string): boolean {
  const expected = Buffer.from(consentToken(ctx, userId, handle));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
