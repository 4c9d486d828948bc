import type { Database } from "@ams/db";
import { AppError, type Capability, type OrgRole, roleHas, type ServiceClaims, type Via } from "@ams/shared";

/**
 * Who is calling and on what: built by each surface from the verified inter-service token.
 * Every verb receives it and filters every query by ctx.workspaceId.
 */
export type RequestContext = {
  database: Database;
  userId: string;
  username: string;
  organizationId: string | null;
  workspaceId: string | null;
  role: OrgRole | null;
  platformAdmin: boolean;
  /** The workspace an API token is pinned to: the caller sees and selects nothing else (but its drafts). */
  pinnedWorkspaceId?: string | null;
  /** The API token the call came with (null: a session); a pinned token's activation is kept on it. */
  apiTokenId?: string | null;
  /** The caller's teams in the organization: workspaces assigned to other teams are invisible to a member. */
  teamIds?: string[];
  /** Resolves `Service Plugin IconPack` values to icons for rendering (the plugin registry); none means type icons. */
  resolveIcon?: (value: string) => { href: string } | { svg: string } | undefined;
  /** The id of the request (X-Request-Id), carried into queued jobs so their log lines can be found with it. */
  requestId?: string;
  /** The caller's display name, recorded as the actor of the changes it makes (the username when absent). */
  actorName?: string;
  /**
   * The way the request came in (browser, API token, MCP client), recorded with every change it makes; none means
   * the system (seed, background work).
   */
  via?: Via;
};

/** The context of a request the gateway signed: who, where and with which role, from the service token's claims. */
export function contextFromClaims(
  database: Database,
  claims: ServiceClaims,
  resolveIcon?: RequestContext["resolveIcon"],
  surface: "rest" | "mcp" = "rest",
): RequestContext {
  return {
    database,
    userId: claims.userId,
    username: claims.username,
    organizationId: claims.organizationId,
    workspaceId: claims.workspaceId,
    role: claims.role,
    platformAdmin: claims.platformAdmin,
    pinnedWorkspaceId: claims.pinnedWorkspaceId ?? null,
    apiTokenId: claims.apiTokenId ?? null,
    teamIds: claims.teamIds ?? [],
    resolveIcon,
    actorName: claims.displayName ?? claims.username,
    via: claims.via ?? viaOfOlderToken(claims, surface),
  };
}

/** A token signed before the gateway named the way in: MCP by its audience, else an API token or the browser. */
function viaOfOlderToken(claims: ServiceClaims, surface: "rest" | "mcp"): Via {
  if (surface === "mcp") return { kind: "mcp", name: null };
  return { kind: claims.apiTokenId ? "api_token" : "browser", name: null };
}

/** What every verb takes: the caller's context and, unless it needs none, its input. */
export type Verb<I = undefined> = [I] extends [undefined]
  ? { ctx: RequestContext; input?: undefined }
  : undefined extends I
    ? { ctx: RequestContext; input?: Exclude<I, undefined> }
    : { ctx: RequestContext; input: I };

export function requireCapability(ctx: RequestContext, capability: Capability): void {
  if (!ctx.role || !roleHas(ctx.role, capability)) {
    throw new AppError("FORBIDDEN", `Your role (${ctx.role ?? "none"}) does not allow ${capability}`);
  }
}

/** The active workspace, or a 404 telling the caller to create or activate one. */
export function requireWorkspace(ctx: RequestContext): string {
  if (!ctx.workspaceId) {
    throw new AppError("NOT_FOUND", "No active workspace: create one or activate one", { see: "activateWorkspace" });
  }
  return ctx.workspaceId;
}
