import { apiTokens, oauthClients, oauthRefreshTokens, workspaces } from "@ams/db";
import { AppError, invalid } from "@ams/shared";
import { and, desc, eq, inArray, isNull, max, sql } from "drizzle-orm";
import { recordCallerEvent } from "../audit/record.ts";
import { generateApiToken } from "../auth/api-token-format.ts";
import { isUuid } from "../gateway/resolve.ts";
import {
  type ApiToken,
  type CreateApiTokenInput,
  type CreatedApiToken,
  type OAuthGrant,
  toApiToken,
} from "../tokens/schemas.ts";
import type { MemberContext, SignedInContext } from "./context.ts";

/**
 * The caller's own personal API tokens that are not revoked, newest first (never the secret). A token an MCP client
 * holds through OAuth says so, with its client, its last renewal and until when it can renew itself: its hourly
 * access token lapsing does not end the grant.
 */
export async function listApiTokens({ ctx }: { ctx: SignedInContext }): Promise<ApiToken[]> {
  const rows = await ctx.database.db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, ctx.principal.userId), isNull(apiTokens.revokedAt)))
    .orderBy(desc(apiTokens.createdAt));
  const grants = await oauthGrantsOf(
    ctx,
    rows.map((r) => r.id),
  );
  const now = ctx.clock();
  return rows.map((r) => toApiToken(r, now, grants.get(r.id) ?? null));
}

/** The OAuth grants among these (the caller's) tokens: every token, grant time and renewal issues a refresh token. */
async function oauthGrantsOf(ctx: SignedInContext, tokenIds: string[]): Promise<Map<string, OAuthGrant>> {
  if (tokenIds.length === 0) return new Map();
  const rows = await ctx.database.db
    .select({
      apiTokenId: oauthRefreshTokens.apiTokenId,
      clientName: oauthClients.clientName,
      renewedAt: max(oauthRefreshTokens.createdAt),
      renewableUntil: sql<
        Date | string | null
      >`max(${oauthRefreshTokens.expiresAt}) filter (where ${oauthRefreshTokens.usedAt} is null and ${oauthRefreshTokens.expiresAt} > ${ctx.clock().toISOString()}::timestamptz)`,
    })
    .from(oauthRefreshTokens)
    .innerJoin(oauthClients, eq(oauthClients.clientId, oauthRefreshTokens.clientId))
    .where(inArray(oauthRefreshTokens.apiTokenId, tokenIds))
    .groupBy(oauthRefreshTokens.apiTokenId, oauthClients.clientName);
  const iso = (d: Date | string | number) => new Date(d).toISOString();
  return new Map(
    rows.map((r) => [
      r.apiTokenId,
      {
        client_name: r.clientName,
        renewed_at: iso(r.renewedAt ?? 0),
        renewable_until: r.renewableUntil === null ? null : iso(r.renewableUntil),
      },
    ]),
  );
}

/**
 * A new token in the organization the gateway checked (a membership, not suspended, no Admin), optionally pinned
 * to one of its workspaces. The token stores no role: it is re-resolved on every request. The secret is answered
 * this once.
 */
export async function createApiToken({
  ctx,
  input,
}: {
  ctx: MemberContext;
  input: CreateApiTokenInput;
}): Promise<CreatedApiToken> {
  const now = ctx.clock();
  if (input.workspace_id) {
    const [ws] = await ctx.database.db
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(and(eq(workspaces.id, input.workspace_id), eq(workspaces.organizationId, ctx.organizationId)));
    if (!ws) throw invalid("workspace_id", "is not a workspace of the organization");
  }
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  if (expiresAt && expiresAt.getTime() <= now.getTime()) throw invalid("expires_at", "must be in the future");
  const secret = generateApiToken();
  const [row] = await ctx.database.db
    .insert(apiTokens)
    .values({
      userId: ctx.principal.userId,
      organizationId: ctx.organizationId,
      workspaceId: input.workspace_id ?? null,
      name: input.name,
      prefix: secret.prefix,
      tokenHash: secret.tokenHash,
      expiresAt,
      createdAt: now,
      assistant: input.assistant ?? false,
    })
    .returning();
  if (!row) throw new AppError("INTERNAL", "The API token was not stored");
  await recordCallerEvent(ctx, {
    kind: "api_token.created",
    organizationId: ctx.organizationId,
    details: { token_id: row.id, name: row.name, prefix: row.prefix, workspace_id: row.workspaceId },
  });
  return { ...toApiToken(row, now), token: secret.token };
}

/** Revokes one of the caller's own tokens; it stops working on the next request. */
export async function revokeApiToken({ ctx, input }: { ctx: SignedInContext; input: { id: string } }): Promise<void> {
  const revoked = isUuid(input.id)
    ? await ctx.database.db
        .update(apiTokens)
        .set({ revokedAt: ctx.clock() })
        .where(and(eq(apiTokens.id, input.id), eq(apiTokens.userId, ctx.principal.userId), isNull(apiTokens.revokedAt)))
        .returning({ id: apiTokens.id, name: apiTokens.name, prefix: apiTokens.prefix, org: apiTokens.organizationId })
    : [];
  const [token] = revoked;
  if (!token) throw new AppError("NOT_FOUND", "API token not found");
  await recordCallerEvent(ctx, {
    kind: "api_token.revoked",
    organizationId: token.org,
    details: { token_id: token.id, name: token.name, prefix: token.prefix },
  });
}
