import { AppError, roleHas } from "@ams/shared";
import type { Access, ApiTokenGrant, Principal } from "../auth/principal.ts";
import type { ActiveStanding, Standing } from "./resolve.ts";
import type { RouteRule } from "./routes.ts";

/** The three lookups the gateway may need; each is one indexed query. */
export type StandingResolver = {
  /** sessionOrganizationId: the session profile's activeOrganizationId, preferred while still a membership. */
  active(userId: string, sessionOrganizationId?: string | null): Promise<ActiveStanding | null>;
  organization(userId: string, organizationId: string): Promise<Standing | null>;
  workspace(userId: string, workspaceId: string): Promise<Standing | null>;
};

export type AuthorizeInput = {
  rule: RouteRule;
  params: Record<string, string>;
  principal: Principal | null;
  /** organization_id from the JSON body, for body-org targets (undefined when absent). */
  bodyOrganizationId?: string;
};

export const unauthenticated = () =>
  new AppError("UNAUTHENTICATED", "Sign in or send a valid Bearer token", {
    headers: { "WWW-Authenticate": "Bearer" },
  });

const hidden = (what: string) => new AppError("NOT_FOUND", `${what} not found`);

/** Path parameter :id of an org-param or workspace-param route (the route table's patterns always have it). */
function idParam(params: Record<string, string>): string {
  const id = params.id;
  if (id === undefined) throw new AppError("NOT_FOUND", "No such route");
  return id;
}
const targetNoun: Record<RouteRule["target"], string> = {
  none: "Resource",
  "active-org": "Active organization",
  "active-workspace": "Active organization",
  "org-param": "Organization",
  "workspace-param": "Workspace",
  "body-org": "Organization",
  "body-org-or-active": "Organization",
};

/**
 * What differs between the profiles' rules: in the session profile a platform_admin bypasses every organization
 * check (acting as owner, whatever their membership, suspension and team restrictions included); in the local
 * profile only a membership counts.
 */
export type AuthorizationPolicy = { platformAdminBypass: boolean };

/**
 * The gateway's decision, for both profiles: 401 without valid credentials (before any lookup), 404 when the
 * caller is no member of the target organization or the target workspace is assigned to teams the caller is not in
 * (hiding it), 403 for a suspended organization or an insufficient role. Without the policy's bypass Platform Admin
 * gets no content access from the realm role: only a membership counts, and suspension applies to it too.
 */
export async function authorize(
  input: AuthorizeInput,
  resolver: StandingResolver,
  policy: AuthorizationPolicy = { platformAdminBypass: false },
): Promise<Access> {
  const { rule, principal } = input;
  const none: Access = { principal, organizationId: null, workspaceId: null, role: null, teamIds: [] };
  if (rule.auth === "public") return none;
  if (!principal) throw unauthenticated();
  if (rule.auth === "api-token" && !principal.apiToken) throw unauthenticated();
  if (principal.apiToken?.mcpOnly && rule.upstream !== "mcp") {
    throw new AppError(
      "FORBIDDEN",
      "This token was issued to an MCP client through OAuth and works on the MCP endpoint (/mcp/) only; " +
        "use a personal API token (Settings > API tokens) for the REST API",
    );
  }
  if (rule.auth === "session" && principal.apiToken) {
    throw new AppError("FORBIDDEN", "This route needs a signed-in session, not an API token");
  }
  if (rule.admin === "required" && !principal.platformAdmin) {
    throw new AppError("FORBIDDEN", "This route is for platform administrators");
  }
  if (rule.admin === "refused" && principal.platformAdmin) {
    throw new AppError("FORBIDDEN", "A platform administrator cannot create personal API tokens");
  }
  if (rule.target === "none") return none;

  const target = principal.apiToken
    ? await targetForToken(input, principal.apiToken, resolver, principal.userId)
    : await targetForSession(input, resolver, principal.userId);
  if (target === "no-membership") {
    throw new AppError("FORBIDDEN", "You are not a member of any organization; ask an administrator to add you");
  }
  if (target && policy.platformAdminBypass && principal.platformAdmin && !principal.apiToken) {
    requireTwoFactor(target, principal);
    const { organizationId, workspaceId, teamIds } = target;
    return { principal, organizationId, workspaceId, role: "owner", teamIds };
  }
  if (!target?.role || !target.visible) throw hidden(targetNoun[rule.target]);
  requireTwoFactor(target, principal);
  if (!target.enabled) throw new AppError("FORBIDDEN", "This organization is suspended");
  if (rule.need && !roleHas(target.role, rule.need)) {
    throw new AppError("FORBIDDEN", `Your role (${target.role}) does not allow ${rule.need}`);
  }
  const { organizationId, workspaceId, teamIds } = target;
  return { principal, organizationId, workspaceId, role: target.role, teamIds };
}

/**
 * An organization whose members must use two-factor refuses a browser session without it (the UI sends the person to
 * enrolment). API tokens are unaffected: they are made by a signed-in person and scoped by the organization's owner.
 */
function requireTwoFactor(target: Standing, principal: Principal): void {
  if (target.twoFactorOk || principal.apiToken) return;
  throw new AppError(
    "TWO_FACTOR_REQUIRED",
    "This organization requires two-factor authentication: turn it on in your settings (Two-factor authentication)",
  );
}

type Target = (Standing & { workspaceId: string | null }) | null | "no-membership";

async function targetForSession(input: AuthorizeInput, resolver: StandingResolver, userId: string): Promise<Target> {
  const { rule, params, bodyOrganizationId } = input;
  switch (rule.target) {
    case "active-org":
    case "active-workspace":
      return resolver.active(userId, input.principal?.activeOrganizationId);
    case "org-param":
      return withWorkspace(await resolver.organization(userId, idParam(params)), null);
    case "workspace-param":
      return withWorkspace(await resolver.workspace(userId, idParam(params)), idParam(params));
    case "body-org":
      if (bodyOrganizationId === undefined) throw requiredOrganization();
      return withWorkspace(await resolver.organization(userId, bodyOrganizationId), null);
    case "body-org-or-active": {
      const active = await resolver.active(userId, input.principal?.activeOrganizationId);
      if (bodyOrganizationId === undefined) return active ?? "no-membership";
      const chosen = await resolver.organization(userId, bodyOrganizationId);
      if (!chosen?.role && !active) return "no-membership";
      const workspaceId = active?.organizationId === bodyOrganizationId ? active.workspaceId : null;
      return withWorkspace(chosen, workspaceId);
    }
    default:
      return null;
  }
}

/** A token's scope wins: its organization (and pinned workspace) is the only one it can reach. */
async function targetForToken(
  input: AuthorizeInput,
  grant: ApiTokenGrant,
  resolver: StandingResolver,
  userId: string,
): Promise<Target> {
  const { rule, params, bodyOrganizationId } = input;
  const own: Standing & { workspaceId: string | null } = {
    organizationId: grant.organizationId,
    enabled: grant.organizationEnabled,
    role: grant.role,
    workspaceId: grant.workspaceId,
    teamIds: grant.teamIds,
    visible: grant.workspaceVisible,
    // API tokens are unaffected by the two-factor rule (requireTwoFactor).
    twoFactorOk: true,
  };
  switch (rule.target) {
    case "active-org":
    case "active-workspace":
      return own;
    case "org-param":
      return params.id === grant.organizationId ? { ...own, workspaceId: null } : null;
    case "workspace-param": {
      const id = idParam(params);
      const standing = await resolver.workspace(userId, id);
      // A pinned token reaches its workspace and that workspace's drafts (a draft it forks is where it works), no other.
      const pin = grant.pinnedWorkspaceId;
      if (pin && id !== pin && standing?.baseWorkspaceId !== pin) return null;
      return standing?.organizationId === grant.organizationId ? { ...standing, workspaceId: id } : null;
    }
    case "body-org":
      if (bodyOrganizationId === undefined) throw requiredOrganization();
      return bodyOrganizationId === grant.organizationId ? own : null;
    case "body-org-or-active":
      // Only workspace creation targets "the body's organization or the active one": a pinned token stays inside
      // its one workspace.
      if (grant.pinnedWorkspaceId) {
        throw new AppError(
          "FORBIDDEN",
          "This API token is pinned to one workspace: it cannot create workspaces (use a token without a workspace)",
        );
      }
      return bodyOrganizationId === undefined || bodyOrganizationId === grant.organizationId ? own : null;
    default:
      return null;
  }
}

function withWorkspace(standing: Standing | null, workspaceId: string | null): Target {
  return standing ? { ...standing, workspaceId } : null;
}

const requiredOrganization = () =>
  new AppError("VALIDATION", "organization_id: required", {
    errors: [{ path: "organization_id", message: "required" }],
  });
