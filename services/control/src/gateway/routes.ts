import type { Capability } from "@ams/shared";

/**
 * THE access table: every route the product serves under /api and /mcp (and the session profile's JSON routes under
 * /auth, and the public share links under /s), who may call it and against which organization it is authorized. The gateway decides from it alone; the
 * authorization test reads it too, and fails when a route that control or tenant serves is missing here.
 */
export type Method = "GET" | "POST" | "PUT" | "DELETE" | "PATCH";

/**
 * public     no credentials needed (none are looked at)
 * any        an access JWT (cookie or Bearer) or a personal API token
 * session    an access JWT only: interactive sign-in, not an API token
 * api-token  a personal API token only (the MCP endpoint)
 */
export type Auth = "public" | "any" | "session" | "api-token";

/**
 * none                no organization involved
 * active-org          the caller's active organization (an API token: its organization)
 * active-workspace    the active workspace and its organization (an API token: its organization and workspace)
 * org-param           path parameter :id is an organization
 * workspace-param     path parameter :id is a workspace; authorized against its organization
 * body-org            JSON body `organization_id` (required)
 * body-org-or-active  JSON body `organization_id`, else the active organization
 */
export type Target =
  | "none"
  | "active-org"
  | "active-workspace"
  | "org-param"
  | "workspace-param"
  | "body-org"
  | "body-org-or-active";

export type UpstreamName = "control" | "tenant" | "mcp";

export type RouteRule = {
  method: Method;
  /** Hono-style pattern: static segments and :params. */
  path: string;
  upstream: UpstreamName;
  auth: Auth;
  target: Target;
  /** Capability the caller's membership role needs in the target organization. */
  need?: Capability;
  /** "required": only platform_admin; "refused": platform_admin gets 403 (token creation). */
  admin?: "required" | "refused";
  /** The path the upstream receives, when it differs (MCP). */
  forwardPath?: string;
  /** Served only in this profile (AUTH_MODE); elsewhere the gateway knows no such route (404). */
  profile?: "session";
};

const read = "model:read" as const;
const write = "model:write" as const;

const r = (
  method: Method,
  path: string,
  upstream: UpstreamName,
  auth: Auth,
  target: Target,
  extra: Partial<Pick<RouteRule, "need" | "admin" | "forwardPath" | "profile">> = {},
): RouteRule => ({ method, path, upstream, auth, target, ...extra });

/** Model routes: tenant, authorized against the active workspace. */
const model = (method: Method, path: string, need: Capability = method === "GET" ? read : write) =>
  r(method, path, "tenant", "any", "active-workspace", { need });

const mcp = (method: Method, path: string) =>
  r(method, path, "mcp", "api-token", "active-workspace", { need: read, forwardPath: "/api/mcp" });

export const routeTable: readonly RouteRule[] = [
  // Public
  r("GET", "/api/health", "control", "public", "none"),
  r("GET", "/api/settings/messages", "control", "public", "none"),
  r("GET", "/api/plugins/:pluginSlug/icons/:iconSlug", "tenant", "public", "none"),
  // Share links: anyone with the link, no credentials looked at; the token (hashed, looked up by tenant) is the
  // proof, and answers only what it shares (a view, or the report's files).
  r("GET", "/s/:token", "tenant", "public", "none"),
  r("GET", "/s/:token/:file", "tenant", "public", "none"),
  r("GET", "/s/:token/:dir/:file", "tenant", "public", "none"),
  // One OpenAPI document for control and tenant, and the interactive reference (served by control)
  r("GET", "/api/openapi.json", "control", "public", "none"),
  r("GET", "/api/docs", "control", "public", "none"),
  r("GET", "/api/docs/assets/docs-init.js", "control", "public", "none"),
  r("GET", "/api/docs/assets/:file", "control", "public", "none"),
  // Local sign-in and session (the refresh cookie is the credential of refresh and logout)
  r("GET", "/api/auth/options", "control", "public", "none"),
  r("POST", "/api/auth/local/login", "control", "public", "none"),
  r("POST", "/api/auth/refresh", "control", "public", "none"),
  r("POST", "/api/auth/logout", "control", "public", "none"),
  r("GET", "/api/auth/logout", "control", "public", "none"),
  // "Forgot password" of local accounts: anonymous, each with its own per-address limit (password-reset/limits.ts)
  r("POST", "/api/auth/local/forgot-password", "control", "public", "none"),
  r("POST", "/api/auth/local/reset-password", "control", "public", "none"),
  // Identity-provider browser sign-in (without SSO, login redirects to the local sign-in page)
  r("GET", "/api/auth/login", "control", "public", "none"),
  r("GET", "/api/auth/callback", "control", "public", "none"),
  r("GET", "/api/auth/me", "control", "any", "none"),
  r("POST", "/api/auth/change-password", "control", "session", "none"),
  r("POST", "/api/auth/change-password/skip", "control", "session", "none"),
  // Two-factor: the state in both profiles; enrolment, disable, recovery codes and the second sign-in step of local
  // accounts (the session profile's are better-auth's, under /auth/two-factor/*: session/routes.ts)
  r("GET", "/api/auth/two-factor", "control", "session", "none"),
  r("POST", "/api/auth/two-factor/enrol", "control", "session", "none"),
  r("POST", "/api/auth/two-factor/confirm", "control", "session", "none"),
  r("POST", "/api/auth/two-factor/disable", "control", "session", "none"),
  r("POST", "/api/auth/two-factor/recovery-codes", "control", "session", "none"),
  r("POST", "/api/auth/local/login/two-factor", "control", "public", "none"),
  r("GET", "/api/me", "control", "any", "none"),
  // The session profile's own JSON routes beside better-auth's sign-in endpoints (session/routes.ts allows only the
  // ones the product uses): the providers to sign in with, the caller's sessions and their revocation.
  r("GET", "/auth/providers", "control", "public", "none", { profile: "session" }),
  r("GET", "/auth/sessions", "control", "session", "none", { profile: "session" }),
  r("DELETE", "/auth/sessions/:id", "control", "session", "none", { profile: "session" }),
  // Organizations and members
  r("GET", "/api/organizations", "control", "any", "none"),
  r("PUT", "/api/organizations/:id", "control", "any", "org-param", { need: "org:rename" }),
  r("POST", "/api/organizations/:id/activate", "control", "any", "org-param", { need: read }),
  r("GET", "/api/organizations/:id/audit", "control", "any", "org-param", { need: "org:audit" }),
  r("GET", "/api/organizations/:id/members", "control", "any", "org-param", { need: read }),
  r("POST", "/api/organizations/:id/members", "control", "any", "org-param", { need: "org:members" }),
  r("PUT", "/api/organizations/:id/members/:userId", "control", "any", "org-param", { need: "org:members" }),
  r("DELETE", "/api/organizations/:id/members/:userId", "control", "any", "org-param", { need: "org:members" }),
  // Invitations: the owner manages them; the invitee's preview and accept bypass membership (their guard is the
  // token plus the caller's verified e-mail) but still need credentials: 401 comes before any token lookup.
  r("GET", "/api/organizations/:id/invitations", "control", "any", "org-param", { need: "org:members" }),
  r("POST", "/api/organizations/:id/invitations", "control", "any", "org-param", { need: "org:members" }),
  r("DELETE", "/api/organizations/:id/invitations/:invitationId", "control", "any", "org-param", {
    need: "org:members",
  }),
  r("POST", "/api/organizations/:id/invitations/:invitationId/resend", "control", "any", "org-param", {
    need: "org:members",
  }),
  // Teams (session profile only: the local profile has none): anyone in the organization reads them, owners and
  // admins manage them and assign workspaces to them.
  r("GET", "/api/organizations/:id/teams", "control", "any", "org-param", { need: read, profile: "session" }),
  r("POST", "/api/organizations/:id/teams", "control", "any", "org-param", { need: "org:members", profile: "session" }),
  r("PUT", "/api/organizations/:id/teams/:teamId", "control", "any", "org-param", {
    need: "org:members",
    profile: "session",
  }),
  r("DELETE", "/api/organizations/:id/teams/:teamId", "control", "any", "org-param", {
    need: "org:members",
    profile: "session",
  }),
  r("PUT", "/api/organizations/:id/teams/:teamId/members/:userId", "control", "any", "org-param", {
    need: "org:members",
    profile: "session",
  }),
  r("DELETE", "/api/organizations/:id/teams/:teamId/members/:userId", "control", "any", "org-param", {
    need: "org:members",
    profile: "session",
  }),
  r("GET", "/api/workspaces/:id/teams", "control", "any", "workspace-param", { need: read, profile: "session" }),
  r("PUT", "/api/workspaces/:id/teams", "control", "any", "workspace-param", {
    need: "org:members",
    profile: "session",
  }),
  // The organization's validation rules: every member reads them (the validator applies them), owners and admins write
  r("GET", "/api/organizations/:id/validation-rules", "tenant", "any", "org-param", { need: read }),
  r("POST", "/api/organizations/:id/validation-rules", "tenant", "any", "org-param", { need: "org:rules" }),
  r("PUT", "/api/organizations/:id/validation-rules/:ruleId", "tenant", "any", "org-param", { need: "org:rules" }),
  r("DELETE", "/api/organizations/:id/validation-rules/:ruleId", "tenant", "any", "org-param", { need: "org:rules" }),
  r("GET", "/api/invitations/:token", "control", "any", "none"),
  r("POST", "/api/invitations/:token/accept", "control", "any", "none"),
  // An invited person without an account creates it from the link: anonymous, the token is the proof (its own
  // per-address limit, password-reset/limits.ts).
  r("POST", "/api/invitations/:token/register", "control", "public", "none"),
  // Personal API tokens: managed from a signed-in session only, never with a token
  r("GET", "/api/settings/api-tokens", "control", "session", "none"),
  r("POST", "/api/settings/api-tokens", "control", "session", "body-org", { need: read, admin: "refused" }),
  r("DELETE", "/api/settings/api-tokens/:id", "control", "session", "none"),
  // The MCP OAuth consent page's calls: a signed-in session only (an API token cannot grant another); the pending
  // request's owner and its anti-forgery value are checked by the verb (services/control/src/verbs/oauth.ts).
  r("GET", "/api/oauth/requests/:handle", "control", "session", "none"),
  r("POST", "/api/oauth/requests/:handle/decision", "control", "session", "none"),
  r("PUT", "/api/settings/messages", "control", "any", "none", { admin: "required" }),
  // Platform administration (metadata only)
  r("GET", "/api/platform/organizations", "control", "any", "none", { admin: "required" }),
  r("POST", "/api/platform/organizations", "control", "any", "none", { admin: "required" }),
  r("PUT", "/api/platform/organizations/:id", "control", "any", "none", { admin: "required" }),
  r("DELETE", "/api/platform/organizations/:id", "control", "any", "none", { admin: "required" }),
  r("GET", "/api/platform/organizations/:id/members", "control", "any", "none", { admin: "required" }),
  r("POST", "/api/platform/organizations/:id/members", "control", "any", "none", { admin: "required" }),
  r("PUT", "/api/platform/organizations/:id/members/:userId", "control", "any", "none", { admin: "required" }),
  r("DELETE", "/api/platform/organizations/:id/members/:userId", "control", "any", "none", { admin: "required" }),
  r("GET", "/api/platform/audit", "control", "any", "none", { admin: "required" }),
  r("GET", "/api/platform/users", "control", "any", "none", { admin: "required" }),
  r("POST", "/api/platform/users", "control", "any", "none", { admin: "required" }),
  r("PUT", "/api/platform/users/:id", "control", "any", "none", { admin: "required" }),
  r("DELETE", "/api/platform/users/:id", "control", "any", "none", { admin: "required" }),
  r("POST", "/api/platform/users/:id/reset-password", "control", "any", "none", { admin: "required" }),
  r("GET", "/api/platform/plugins", "tenant", "any", "none", { admin: "required" }),
  r("GET", "/api/platform/plugins/:slug", "tenant", "any", "none", { admin: "required" }),
  r("PUT", "/api/platform/plugins/:slug", "tenant", "any", "none", { admin: "required" }),
  r("GET", "/api/platform/plugins/:slug/icons/:iconSlug", "tenant", "any", "none", { admin: "required" }),
  // Workspaces
  r("GET", "/api/workspaces", "tenant", "any", "active-org", { need: read }),
  r("POST", "/api/workspaces", "tenant", "any", "body-org-or-active", { need: "workspace:write" }),
  r("PUT", "/api/workspaces/:id", "tenant", "any", "workspace-param", { need: "workspace:write" }),
  r("DELETE", "/api/workspaces/:id", "tenant", "any", "workspace-param", { need: "workspace:write" }),
  r("POST", "/api/workspaces/:id/activate", "tenant", "any", "workspace-param", { need: read }),
  // History of a workspace (the change log's readers): every reader reads it; restore and revert write (a version's
  // deletion is further limited to owners by the verb)
  r("GET", "/api/workspaces/:id/versions", "tenant", "any", "workspace-param", { need: read }),
  r("POST", "/api/workspaces/:id/versions", "tenant", "any", "workspace-param", { need: write }),
  r("DELETE", "/api/workspaces/:id/versions/:versionId", "tenant", "any", "workspace-param", { need: write }),
  r("GET", "/api/workspaces/:id/diff", "tenant", "any", "workspace-param", { need: read }),
  r("POST", "/api/workspaces/:id/restore", "tenant", "any", "workspace-param", { need: write }),
  r("POST", "/api/workspaces/:id/history/:revision/revert", "tenant", "any", "workspace-param", { need: write }),
  // Validation reads the model: every reader may run it
  r("POST", "/api/workspaces/:id/validate", "tenant", "any", "workspace-param", { need: read }),
  // Drafts and review: a draft is a workspace (:id of /api/drafts is the draft's own workspace id); forking and
  // merging write (merge also needs the base visible, checked by the verb), reviewing and discarding are further
  // limited by the verbs (discard: its author or an owner), commenting is open to every reader
  r("POST", "/api/workspaces/:id/drafts", "tenant", "any", "workspace-param", { need: write }),
  r("GET", "/api/workspaces/:id/drafts", "tenant", "any", "workspace-param", { need: read }),
  r("GET", "/api/drafts/:id", "tenant", "any", "workspace-param", { need: read }),
  r("GET", "/api/drafts/:id/changes", "tenant", "any", "workspace-param", { need: read }),
  r("GET", "/api/drafts/:id/conflicts", "tenant", "any", "workspace-param", { need: read }),
  r("POST", "/api/drafts/:id/merge", "tenant", "any", "workspace-param", { need: write }),
  r("POST", "/api/drafts/:id/submit", "tenant", "any", "workspace-param", { need: write }),
  r("POST", "/api/drafts/:id/reviews", "tenant", "any", "workspace-param", { need: write }),
  r("POST", "/api/drafts/:id/comments", "tenant", "any", "workspace-param", { need: read }),
  r("POST", "/api/drafts/:id/discard", "tenant", "any", "workspace-param", { need: write }),
  // Share links of a workspace: those who write it create, list and revoke them
  r("GET", "/api/workspaces/:id/share-links", "tenant", "any", "workspace-param", { need: write }),
  r("POST", "/api/workspaces/:id/share-links", "tenant", "any", "workspace-param", { need: write }),
  r("DELETE", "/api/workspaces/:id/share-links/:linkId", "tenant", "any", "workspace-param", { need: write }),
  // The change log: every role that reads a workspace reads its history
  r("GET", "/api/workspaces/:id/history", "tenant", "any", "workspace-param", { need: read }),
  // Saved colourings (heatmaps): every reader uses them, editors save and delete them
  r("GET", "/api/workspaces/:id/colourings", "tenant", "any", "workspace-param", { need: read }),
  r("POST", "/api/workspaces/:id/colourings", "tenant", "any", "workspace-param", { need: write }),
  r("DELETE", "/api/workspaces/:id/colourings/:colouringId", "tenant", "any", "workspace-param", { need: write }),
  // The table view: its columns, and bulk edits as one change group
  r("GET", "/api/workspaces/:id/table", "tenant", "any", "workspace-param", { need: read }),
  r("POST", "/api/workspaces/:id/bulk", "tenant", "any", "workspace-param", { need: write }),
  model("GET", "/api/elements/:id/history"),
  model("GET", "/api/relationships/:id/history"),
  model("GET", "/api/views/:id/history"),
  // Live collaboration: the workspace's events stream and who has it open (every reader is present and sees it)
  r("GET", "/api/workspaces/:id/events", "control", "any", "workspace-param", { need: read }),
  r("GET", "/api/workspaces/:id/presence", "control", "any", "workspace-param", { need: read }),
  r("POST", "/api/workspaces/:id/presence", "control", "any", "workspace-param", { need: read }),
  // Model of the active workspace
  model("GET", "/api"),
  model("POST", "/api/save"),
  model("GET", "/api/export"),
  model("GET", "/api/export/zip"),
  model("POST", "/api/export/neo4j", "graph:rebuild"),
  model("GET", "/api/export/neo4j/jobs/:jobId"),
  model("POST", "/api/import"),
  model("GET", "/api/elements/types"),
  model("GET", "/api/elements"),
  model("POST", "/api/elements"),
  model("GET", "/api/elements/:id"),
  model("PUT", "/api/elements/:id"),
  model("DELETE", "/api/elements/:id"),
  model("GET", "/api/elements/:id/relationships"),
  model("GET", "/api/elements/:id/views"),
  model("GET", "/api/elements/:id/impact"),
  model("GET", "/api/analysis/gap"),
  model("GET", "/api/analysis/gap/image"),
  model("GET", "/api/elements/:id/derived-relationships"),
  model("POST", "/api/elements/:id/restore"),
  model("GET", "/api/folders"),
  model("GET", "/api/relationships/types"),
  model("GET", "/api/relationships"),
  model("POST", "/api/relationships"),
  model("GET", "/api/relationships/:id"),
  model("PUT", "/api/relationships/:id"),
  model("DELETE", "/api/relationships/:id"),
  model("GET", "/api/relationships/:id/views"),
  model("POST", "/api/relationships/:id/restore"),
  model("GET", "/api/views"),
  model("POST", "/api/views"),
  model("GET", "/api/views/:id"),
  model("PUT", "/api/views/:id"),
  model("DELETE", "/api/views/:id"),
  model("GET", "/api/views/:id/image"),
  model("GET", "/api/views/:id/diff-image"),
  model("POST", "/api/views/:id/restore"),
  model("POST", "/api/views/:id/elements"),
  model("POST", "/api/views/:id/nodes"),
  model("PUT", "/api/views/:id/nodes/:nodeId"),
  model("DELETE", "/api/views/:id/nodes/:nodeId"),
  model("POST", "/api/views/:id/connections"),
  model("PUT", "/api/views/:id/connections/:connectionId"),
  model("DELETE", "/api/views/:id/connections/:connectionId"),
  model("GET", "/api/viewpoints"),
  model("GET", "/api/property-definitions"),
  model("POST", "/api/property-definitions"),
  model("GET", "/api/property-definitions/:id"),
  model("PUT", "/api/property-definitions/:id"),
  model("DELETE", "/api/property-definitions/:id"),
  model("GET", "/api/dashboards"),
  model("POST", "/api/dashboards", "dashboard:write"),
  // The admin listing (soft-deleted ones included) is for those who manage dashboards.
  model("GET", "/api/dashboards/admin", "dashboard:write"),
  model("GET", "/api/dashboards/schema"),
  model("GET", "/api/dashboards/:dashboardId"),
  model("PUT", "/api/dashboards/:dashboardId", "dashboard:write"),
  model("DELETE", "/api/dashboards/:dashboardId", "dashboard:write"),
  model("POST", "/api/dashboards/:dashboardId/restore", "dashboard:write"),
  model("GET", "/api/dashboards/:dashboardId/panels/:panelInstanceId"),
  model("GET", "/api/panel-visualizations"),
  model("POST", "/api/explore", read),
  r("GET", "/api/plugins", "tenant", "any", "none"),
  // MCP (Streamable HTTP), rewritten to /api/mcp
  mcp("POST", "/mcp"),
  mcp("GET", "/mcp"),
  mcp("DELETE", "/mcp"),
  mcp("POST", "/mcp/"),
  mcp("GET", "/mcp/"),
  mcp("DELETE", "/mcp/"),
];

/** The rows a deployment serves: a profile's own rows only in that profile (AUTH_MODE). */
export function routesFor(mode: "local" | "session"): readonly RouteRule[] {
  return routeTable.filter((rule) => rule.profile === undefined || rule.profile === mode);
}
