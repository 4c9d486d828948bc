import { createHash } from "node:crypto";
import { apiTokens, oauthClients, oauthCodes, oauthRefreshTokens } from "@ams/db";
import { AppError, type OrgRole, roleHas } from "@ams/shared";
import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { generateApiToken } from "../auth/api-token-format.ts";
import { randomBase62, randomSecret, sha256Hex } from "../auth/secrets.ts";
import type { ControlContext } from "../context.ts";
import { workspaceVisible } from "../gateway/visibility.ts";
import { ACCESS_TOKEN_TTL_MS, CODE_TTL_MS, REFRESH_TOKEN_TTL_MS, USED_REFRESH_TOKEN_MEMORY_MS } from "./endpoints.ts";

type Db = ControlContext["database"]["db"];

export type GrantableOrganization = {
  id: string;
  name: string;
  role: OrgRole;
  canChangeModels: boolean;
  workspaces: { id: string; name: string }[];
};

/**
 * Organizations the user may grant access to (a membership in an enabled organization), each with the workspaces
 * the user sees there (teams hide the others, as everywhere else).
 */
export async function grantableOrganizations(ctx: ControlContext, userId: string): Promise<GrantableOrganization[]> {
  const rows = await ctx.database.rows<{
    org_id: string;
    org_name: string;
    role: OrgRole;
    ws_id: string | null;
    ws_name: string | null;
  }>(
    sql`select o.id as org_id, o.name as org_name, m.role, w.id as ws_id, w.name as ws_name
        from memberships m join organizations o on o.id = m.organization_id and o.enabled
        left join workspaces w on w.organization_id = o.id and ${workspaceVisible("w", userId, sql`m.role`)}
        where m.user_id = ${userId} order by o.name, o.id, w.created_at, w.id`,
  );
  const orgs = new Map<string, GrantableOrganization>();
  for (const r of rows) {
    let org = orgs.get(r.org_id);
    if (!org) {
      org = {
        id: r.org_id,
        name: r.org_name,
        role: r.role,
        canChangeModels: roleHas(r.role, "model:write"),
        workspaces: [],
      };
      orgs.set(r.org_id, org);
    }
    if (r.ws_id) org.workspaces.push({ id: r.ws_id, name: r.ws_name ?? "" });
  }
  return [...orgs.values()];
}

/** Stores a code for the approved request (its SHA-256 only) and answers the code itself, to send to the client. */
export async function issueCode(
  tx: Db,
  now: Date,
  grant: {
    clientId: string;
    userId: string;
    organizationId: string;
    workspaceId: string | null;
    redirectUri: string;
    codeChallenge: string;
  },
): Promise<string> {
  const code = randomSecret(32);
  await tx.delete(oauthCodes).where(lt(oauthCodes.expiresAt, new Date(now.getTime() - 86_400_000)));
  await tx.insert(oauthCodes).values({
    codeHash: sha256Hex(code),
    ...grant,
    expiresAt: new Date(now.getTime() + CODE_TTL_MS),
  });
  return code;
}

/** A refused token request: its OAuth error code and what was wrong. */
export class GrantError extends Error {
  readonly error: string;
  constructor(error: string, description: string) {
    super(description);
    this.error = error;
  }
}

const REFRESH_PREFIX = "ams_ort_";

/** A new refresh token of the grant (stored as SHA-256), valid REFRESH_TOKEN_TTL_MS unused. */
async function issueRefreshToken(tx: Db, apiTokenId: string, clientId: string, now: Date): Promise<string> {
  const token = REFRESH_PREFIX + randomBase62(43);
  await tx.insert(oauthRefreshTokens).values({
    tokenHash: sha256Hex(token),
    apiTokenId,
    clientId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS),
  });
  return token;
}

const tokenAnswer = (access: string, refresh: string) => ({
  access_token: access,
  token_type: "Bearer",
  expires_in: Math.floor(ACCESS_TOKEN_TTL_MS / 1000),
  refresh_token: refresh,
  scope: "mcp",
});

/**
 * The token request of the authorization-code grant: the code used once and in time, by the client it was issued
 * to, for the same redirect URI (required when the client registered several: the code is bound to one), with the
 * PKCE verifier matching its challenge. Only the client the code was issued to can use it up: another client's
 * attempt (a stolen code, a wrong verifier) leaves it to its owner. The access token is a personal API token of the
 * user bound to the organization (and workspace) chosen on the consent page, valid on the MCP endpoint only: the
 * gateway re-resolves its role on every request, and the user revokes it on the tokens page like any other. A
 * refresh token renews it.
 */
export async function exchangeCode(
  ctx: ControlContext,
  input: { code: string; clientId: string; redirectUri?: string; codeVerifier: string },
) {
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(input.codeVerifier)) {
    throw new GrantError("invalid_request", "code_verifier must be 43 to 128 unreserved characters");
  }
  const now = ctx.clock();
  const { db } = ctx.database;
  const [registered] = await db
    .select({ redirectUris: oauthClients.redirectUris })
    .from(oauthClients)
    .where(eq(oauthClients.clientId, input.clientId));
  if (input.redirectUri === undefined && (registered?.redirectUris.length ?? 0) > 1) {
    throw new GrantError("invalid_request", "redirect_uri is required: the client registered several");
  }
  const codeHash = sha256Hex(input.code);
  const [grant] = await db
    .update(oauthCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(oauthCodes.codeHash, codeHash),
        eq(oauthCodes.clientId, input.clientId),
        isNull(oauthCodes.usedAt),
        gt(oauthCodes.expiresAt, now),
      ),
    )
    .returning();
  if (!grant) {
    const [seen] = await db
      .select({ clientId: oauthCodes.clientId })
      .from(oauthCodes)
      .where(eq(oauthCodes.codeHash, codeHash));
    if (seen && seen.clientId !== input.clientId) {
      throw new GrantError("invalid_grant", "the code was issued to another client");
    }
    throw new GrantError("invalid_grant", "the code is unknown, expired or already used");
  }
  if (input.redirectUri !== undefined && input.redirectUri !== grant.redirectUri) {
    throw new GrantError("invalid_grant", "redirect_uri differs from the authorization request");
  }
  const challenge = createHash("sha256").update(input.codeVerifier).digest("base64url");
  if (challenge !== grant.codeChallenge) {
    throw new GrantError("invalid_grant", "code_verifier does not match the challenge");
  }
  return ctx.database.db.transaction(async (tx) => {
    const [client] = await tx
      .update(oauthClients)
      .set({ usedAt: sql`coalesce(${oauthClients.usedAt}, ${now.toISOString()}::timestamptz)` })
      .where(eq(oauthClients.clientId, grant.clientId))
      .returning({ name: oauthClients.clientName });
    if (!client) throw new GrantError("invalid_grant", "the client is no longer registered");
    const secret = generateApiToken();
    const [row] = await tx
      .insert(apiTokens)
      .values({
        userId: grant.userId,
        organizationId: grant.organizationId,
        workspaceId: grant.workspaceId,
        name: `MCP: ${client.name}`.slice(0, 200),
        prefix: secret.prefix,
        tokenHash: secret.tokenHash,
        expiresAt: new Date(now.getTime() + ACCESS_TOKEN_TTL_MS),
        createdAt: now,
        mcpOnly: true,
      })
      .returning({ id: apiTokens.id });
    if (!row) throw new AppError("INTERNAL", "The access token was not stored");
    return tokenAnswer(secret.token, await issueRefreshToken(tx, row.id, grant.clientId, now));
  });
}

/** What a refresh request found: new tokens, or why not (reuse having revoked the grant). */
type Refreshed = { tokens: ReturnType<typeof tokenAnswer> } | { refused: GrantError };

/**
 * The refresh-token grant, rotating: the refresh token is used up and a new one issued with a new access token
 * (the grant's API token gets a new secret and expiry: the previous access token ends). A refresh token presented
 * again after its use means that it leaked or the client is confused: the grant is revoked (the API token too), so
 * whoever holds any of its tokens must ask the user again. A revoked or deleted API token ends its refresh tokens.
 */
export async function refreshGrant(ctx: ControlContext, input: { refreshToken: string; clientId: string }) {
  const now = ctx.clock();
  const hash = sha256Hex(input.refreshToken);
  const outcome = await ctx.database.db.transaction(async (tx): Promise<Refreshed> => {
    const [current] = await tx
      .update(oauthRefreshTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(oauthRefreshTokens.tokenHash, hash),
          eq(oauthRefreshTokens.clientId, input.clientId),
          isNull(oauthRefreshTokens.usedAt),
          gt(oauthRefreshTokens.expiresAt, now),
        ),
      )
      .returning();
    if (!current) {
      const [seen] = await tx.select().from(oauthRefreshTokens).where(eq(oauthRefreshTokens.tokenHash, hash));
      if (seen?.usedAt) {
        await tx
          .update(apiTokens)
          .set({ revokedAt: now })
          .where(and(eq(apiTokens.id, seen.apiTokenId), isNull(apiTokens.revokedAt)));
        await tx.delete(oauthRefreshTokens).where(eq(oauthRefreshTokens.apiTokenId, seen.apiTokenId));
        ctx.log.warn("OAuth refresh token reused: the grant is revoked", {
          apiTokenId: seen.apiTokenId,
          clientId: seen.clientId,
        });
        return {
          refused: new GrantError("invalid_grant", "the refresh token was already used; the grant is revoked"),
        };
      }
      if (seen && seen.clientId !== input.clientId) {
        return { refused: new GrantError("invalid_grant", "the refresh token was issued to another client") };
      }
      return { refused: new GrantError("invalid_grant", "the refresh token is unknown or expired") };
    }
    const secret = generateApiToken();
    const [renewed] = await tx
      .update(apiTokens)
      .set({
        tokenHash: secret.tokenHash,
        prefix: secret.prefix,
        expiresAt: new Date(now.getTime() + ACCESS_TOKEN_TTL_MS),
      })
      .where(and(eq(apiTokens.id, current.apiTokenId), isNull(apiTokens.revokedAt)))
      .returning({ id: apiTokens.id });
    if (!renewed) {
      return { refused: new GrantError("invalid_grant", "the grant was revoked; the user must allow access again") };
    }
    // The grant's used refresh tokens are remembered for reuse detection a week, not for ever (one per renewal).
    await tx
      .delete(oauthRefreshTokens)
      .where(
        and(
          eq(oauthRefreshTokens.apiTokenId, renewed.id),
          or(
            lt(oauthRefreshTokens.expiresAt, now),
            lt(oauthRefreshTokens.usedAt, new Date(now.getTime() - USED_REFRESH_TOKEN_MEMORY_MS)),
          ),
        ),
      );
    return { tokens: tokenAnswer(secret.token, await issueRefreshToken(tx, renewed.id, input.clientId, now)) };
  });
  if ("refused" in outcome) throw outcome.refused;
  return outcome.tokens;
}
