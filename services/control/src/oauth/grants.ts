import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { apiTokens, oauthClients, oauthCodes } from "@ams/db";
import { AppError } from "@ams/shared";
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { generateApiToken } from "../auth/api-token-format.ts";
import { randomSecret, sha256Hex } from "../auth/secrets.ts";
import type { ControlContext } from "../context.ts";
import { CODE_TTL_MS, OAUTH_TOKEN_TTL_MS } from "./endpoints.ts";

/** Organizations the user may grant access to (a membership in an enabled organization), with their workspaces. */
export async function grantableOrganizations(ctx: ControlContext, userId: string) {
  const rows = await ctx.database.rows<{
    org_id: string;
    org_name: string;
    role: string;
    ws_id: string | null;
    ws_name: string | null;
  }>(
    sql`select o.id as org_id, o.name as org_name, m.role, w.id as ws_id, w.name as ws_name
        from memberships m join organizations o on o.id = m.organization_id and o.enabled
        left join workspaces w on w.organization_id = o.id
        where m.user_id = ${userId} order by o.name, o.id, w.created_at, w.id`,
  );
  const orgs = new Map<
    string,
    { id: string; name: string; role: string; workspaces: { id: string; name: string }[] }
  >();
  for (const r of rows) {
    let org = orgs.get(r.org_id);
    if (!org) {
      org = { id: r.org_id, name: r.org_name, role: r.role, workspaces: [] };
      orgs.set(r.org_id, org);
    }
    if (r.ws_id) org.workspaces.push({ id: r.ws_id, name: r.ws_name ?? "" });
  }
  return [...orgs.values()];
}

/** The consent form's anti-forgery value: bound to the signed-in user and the exact request being approved. */
export function consentToken(ctx: ControlContext, userId: string, fields: string[]): string {
  return createHmac("sha256", ctx.env.AUTH_JWT_SECRET)
    .update(["oauth-consent", userId, ...fields].join("\n"))
    .digest("base64url");
}

export function consentTokenMatches(ctx: ControlContext, userId: string, fields: string[], given: string): boolean {
  const expected = Buffer.from(consentToken(ctx, userId, fields));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Stores a code for the approved request (its SHA-256 only) and answers the code itself, to send to the client. */
export async function issueCode(
  ctx: ControlContext,
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
  const now = ctx.clock();
  await ctx.database.db.delete(oauthCodes).where(lt(oauthCodes.expiresAt, new Date(now.getTime() - 86_400_000)));
  await ctx.database.db.insert(oauthCodes).values({
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

/**
 * The token request of the authorization-code grant: the code used once and in time, by the client it was issued
 * to, for the same redirect URI, with the PKCE verifier matching its challenge. The access token is a personal API
 * token of the user bound to the organization (and workspace) chosen on the consent page: the gateway re-resolves
 * its role on every request, and the user revokes it on the tokens page like any other.
 */
export async function exchangeCode(
  ctx: ControlContext,
  input: { code: string; clientId: string; redirectUri?: string; codeVerifier: string },
) {
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(input.codeVerifier)) {
    throw new GrantError("invalid_request", "code_verifier must be 43 to 128 unreserved characters");
  }
  const now = ctx.clock();
  const [grant] = await ctx.database.db
    .update(oauthCodes)
    .set({ usedAt: now })
    .where(
      and(eq(oauthCodes.codeHash, sha256Hex(input.code)), isNull(oauthCodes.usedAt), gt(oauthCodes.expiresAt, now)),
    )
    .returning();
  if (!grant) throw new GrantError("invalid_grant", "the code is unknown, expired or already used");
  if (grant.clientId !== input.clientId) throw new GrantError("invalid_grant", "the code was issued to another client");
  if (input.redirectUri !== undefined && input.redirectUri !== grant.redirectUri) {
    throw new GrantError("invalid_grant", "redirect_uri differs from the authorization request");
  }
  const challenge = createHash("sha256").update(input.codeVerifier).digest("base64url");
  if (challenge !== grant.codeChallenge)
    throw new GrantError("invalid_grant", "code_verifier does not match the challenge");
  const [client] = await ctx.database.db.select().from(oauthClients).where(eq(oauthClients.clientId, grant.clientId));
  const secret = generateApiToken();
  const [row] = await ctx.database.db
    .insert(apiTokens)
    .values({
      userId: grant.userId,
      organizationId: grant.organizationId,
      workspaceId: grant.workspaceId,
      name: `MCP: ${client?.clientName ?? "MCP client"}`.slice(0, 200),
      prefix: secret.prefix,
      tokenHash: secret.tokenHash,
      expiresAt: new Date(now.getTime() + OAUTH_TOKEN_TTL_MS),
      createdAt: now,
    })
    .returning({ id: apiTokens.id });
  if (!row) throw new AppError("INTERNAL", "The access token was not stored");
  return {
    access_token: secret.token,
    token_type: "Bearer",
    expires_in: Math.floor(OAUTH_TOKEN_TTL_MS / 1000),
    scope: "mcp",
  };
}
