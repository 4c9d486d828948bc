import { AppError, roleHas } from "@ams/shared";
import type { Access, ApiTokenGrant, Principal } from "../auth/principal.ts";
import type { ActiveStanding, Standing } from "./resolve.ts";
import type { RouteRule } from "./routes.ts";

/** The three lookups the gateway may need; each is one indexed query. */
export type StandingResolver = {
  active(userId: string): Promise<ActiveStanding | null>;
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
 * The gateway's decision: 401 without valid credentials (before any lookup), 404 when the caller is no member of
 * the target organization (hiding it), 403 for a suspended organization or an insufficient role. Platform Admin
 * gets no content access from the realm role: only a membership counts, and suspension applies to it too.
 */
export async function authorize(input: AuthorizeInput, resolver: StandingResolver): Promise<Access> {
  const { rule, principal } = input;
  const none: Access = { principal, organizationId: null, workspaceId: null, role: null };
  if (rule.auth === "public") return none;
  if (!principal) throw unauthenticated();
  if (rule.auth === "api-token" && !principal.apiToken) throw unauthenticated();
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
  if (!target?.role) throw hidden(targetNoun[rule.target]);
  if (!target.enabled) throw new AppError("FORBIDDEN", "This organization is suspended");
  if (rule.need && !roleHas(target.role, rule.need)) {
    throw new AppError("FORBIDDEN", `Your role (${target.role}) does not allow ${rule.need}`);
  }
  return { principal, organizationId: target.organizationId, workspaceId: target.workspaceId, role: target.role };
}

type Target = (Standing & { workspaceId: string | null }) | null | "no-membership";

async function targetForSession(input: AuthorizeInput, resolver: StandingResolver, userId: string): Promise<Target> {
  const { rule, params, bodyOrganizationId } = input;
  switch (rule.target) {
    case "active-org":
    case "active-workspace":
      return resolver.active(userId);
    case "org-param":
      return withWorkspace(await resolver.organization(userId, params.id), null);
    case "workspace-param":
      return withWorkspace(await resolver.workspace(userId, params.id), params.id);
    case "body-org":
      if (bodyOrganizationId === undefined) throw requiredOrganization();
      return withWorkspace(await resolver.organization(userId, bodyOrganizationId), null);
    case "body-org-or-active": {
      const active = await resolver.active(userId);
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
  };
  switch (rule.target) {
    case "active-org":
    case "active-workspace":
      return own;
    case "org-param":
      return params.id === grant.organizationId ? { ...own, workspaceId: null } : null;
    case "workspace-param": {
      if (grant.pinnedWorkspaceId && params.id !== grant.pinnedWorkspaceId) return null;
      const standing = await resolver.workspace(userId, params.id);
      return standing?.organizationId === grant.organizationId ? { ...standing, workspaceId: params.id } : null;
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
