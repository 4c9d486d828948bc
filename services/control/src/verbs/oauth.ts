import { AppError, invalid } from "@ams/shared";
import { grantableOrganizations, issueCode } from "../oauth/grants.ts";
import { claimPendingRequest, consentToken, consentTokenMatches, consumePendingRequest } from "../oauth/pending.ts";
import { redirectTo } from "../oauth/request.ts";
import type { OAuthConsentRequest, OAuthDecision, OAuthDecisionInput } from "../oauth/schemas.ts";
import type { SignedInContext } from "./context.ts";

/**
 * The consent page's view of a pending authorization request: the client, where the answer goes, and the
 * organizations (with the workspaces the user sees) the user may grant. Opening it binds the request to the user.
 */
export async function describeAuthorizationRequest({
  ctx,
  input,
}: {
  ctx: SignedInContext;
  input: { handle: string };
}): Promise<OAuthConsentRequest> {
  const { userId, platformAdmin, username } = ctx.principal;
  const { request, client } = await claimPendingRequest(ctx, input.handle, userId);
  // Admin holds no personal API tokens (SPEC: Admin cannot create one); an OAuth grant is one.
  const orgs = platformAdmin ? [] : await grantableOrganizations(ctx, userId);
  return {
    client_name: client.clientName,
    redirect_uri: request.redirectUri,
    redirect_host: new URL(request.redirectUri).host,
    username,
    token_name: `MCP: ${client.clientName}`.slice(0, 200),
    can_grant: !platformAdmin,
    organizations: orgs.map((o) => ({
      id: o.id,
      name: o.name,
      role: o.role,
      can_change_models: o.canChangeModels,
      workspaces: o.workspaces,
    })),
    consent: consentToken(ctx, userId, input.handle),
    expires_at: request.expiresAt.toISOString(),
  };
}

/**
 * The user's answer to their pending request, once. Allow: the organization must be one of the user's (enabled,
 * a membership) and the workspace, if any, one of it the user sees; a code bound to that choice, the user and the
 * stored PKCE challenge goes to the stored redirect URI. Deny: error=access_denied goes there. Nothing the browser
 * sends besides the choice is trusted: the handle finds the request, the consent value proves the page read it.
 */
export async function decideAuthorizationRequest({
  ctx,
  input,
}: {
  ctx: SignedInContext;
  input: OAuthDecisionInput & { handle: string };
}): Promise<OAuthDecision> {
  const { userId, platformAdmin } = ctx.principal;
  if (!consentTokenMatches(ctx, userId, input.handle, input.consent)) {
    throw new AppError("FORBIDDEN", "This decision was not made on the consent page of this request; reload it");
  }
  let grant: { organizationId: string; workspaceId: string | null } | null = null;
  if (input.decision === "allow") {
    if (platformAdmin) {
      throw new AppError("FORBIDDEN", "An Admin account cannot grant access to an MCP client; use a member account");
    }
    if (!input.organization_id) throw invalid("organization_id", "is required to allow access");
    const org = (await grantableOrganizations(ctx, userId)).find((o) => o.id === input.organization_id);
    if (!org) throw invalid("organization_id", "is not an organization you are a member of");
    const workspace = input.workspace_id ? org.workspaces.find((w) => w.id === input.workspace_id) : undefined;
    if (input.workspace_id && !workspace) throw invalid("workspace_id", "is not a workspace of that organization");
    grant = { organizationId: org.id, workspaceId: workspace?.id ?? null };
  }
  const now = ctx.clock();
  const redirect = await ctx.database.db.transaction(async (tx) => {
    const request = await consumePendingRequest(tx, input.handle, userId, now);
    const state = request.state ?? undefined;
    if (!grant) {
      return redirectTo(ctx, request.redirectUri, {
        error: "access_denied",
        error_description: "the user denied access",
        state,
      });
    }
    const code = await issueCode(tx, now, {
      clientId: request.clientId,
      userId,
      ...grant,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
    });
    return redirectTo(ctx, request.redirectUri, { code, state });
  });
  return { redirect_to: redirect };
}
