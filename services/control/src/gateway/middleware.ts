import { AppError, mustExist, type ServiceClaims, type Via } from "@ams/shared";
import { limitBody } from "@ams/shared/http";
import type { Context, MiddlewareHandler } from "hono";
import { clientIp } from "../auth/client-ip.ts";
import type { Access, Principal } from "../auth/principal.ts";
import { type RateWindow, requireInWindow } from "../auth/rate-window.ts";
import type { ControlContext } from "../context.ts";
import type { AppEnv } from "../http/app-env.ts";
import { oauthEndpoints } from "../oauth/endpoints.ts";
import { authorize, type StandingResolver, unauthenticated } from "./authorize.ts";
import { forwardRequest } from "./forward.ts";
import { createMatcher } from "./match.ts";
import { peekOrganizationId } from "./peek-body.ts";
import { resolveActive, resolveOrganization, resolveWorkspace } from "./resolve.ts";
import { routesFor } from "./routes.ts";
import { cachedStandings } from "./standing-cache.ts";
import { forwardWithWorkspaceAudit } from "./workspace-audit.ts";

/** The largest body the gateway buffers to read organization_id (the tenant's upload limit is the same). */
export const PEEK_LIMIT_BYTES = 50 * 1024 * 1024;
const peekLimit = limitBody(PEEK_LIMIT_BYTES);

/**
 * Share links (/s/...) answer anyone without an account, and each request makes the tenant look the token up and
 * build a page of the model: one client address may make this many of them per window (sliding), then gets 429 with
 * Retry-After, counted in the database like the other anonymous routes (every replica shares the window). A person
 * browsing a shared report makes a request per page opened; a view embedded in a wiki, one per reader.
 */
export const SHARED_PAGES_PER_ADDRESS: RateWindow = { max: 600, windowMs: 5 * 60 * 1000 };

const isGatewayPath = (path: string) =>
  path === "/api" || path.startsWith("/api/") || path === "/mcp" || path.startsWith("/mcp/") || path.startsWith("/s/");

/**
 * THE authorization gateway, in front of every /api and /mcp request and the table's /auth rows: match the route
 * table, authenticate, resolve organization/workspace/role, answer 401/403/404, then either hand over to a control
 * route (with the decision in c.var.access) or sign the inter-service token and forward to tenant or mcp. Any other
 * /auth path (better-auth's endpoints in the session profile, session/routes.ts) is not the gateway's.
 */
export function createGateway(ctx: ControlContext): MiddlewareHandler<AppEnv> {
  const match = createMatcher(routesFor(ctx.env.AUTH_MODE));
  const policy = authorizationPolicy(ctx);
  const resolver = standingResolver(ctx);

  return async (c, next) => {
    const path = c.req.path;
    const gatewayPath = isGatewayPath(path);
    if (!gatewayPath && !path.startsWith("/auth/")) return next();
    const found = match(c.req.method, path);
    if (!found && !gatewayPath) return next();
    if (!found) {
      // Unknown routes answer 401 before 404, so probing without credentials learns nothing.
      if (!(await ctx.authenticate(c))) throw unauthenticated();
      throw new AppError("NOT_FOUND", "No such route");
    }
    const { rule, params } = found;
    c.set("route", rule.path);
    if (rule.path.startsWith("/s/")) {
      await requireInWindow(
        ctx.database.db,
        `share:${clientIp(c, ctx.env.TRUST_PROXY_HOPS)}`,
        SHARED_PAGES_PER_ADDRESS,
        ctx.clock(),
        "Too many requests for shared pages from this address; try again later",
      );
    }
    const principal = rule.auth === "public" ? null : await ctx.authenticate(c);
    let body: ArrayBuffer | undefined;
    let bodyOrganizationId: string | undefined;
    if (principal && (rule.target === "body-org" || rule.target === "body-org-or-active")) {
      // limitBody runs the reader or throws 413; the body is kept to be forwarded as it came.
      const peeked: { body?: ArrayBuffer } = {};
      await peekLimit(c, async () => {
        peeked.body = await c.req.arrayBuffer();
      });
      body = mustExist(peeked.body, "The request body read within the peek limit");
      // The request stays readable for what follows (the NUL check, a control route's validator).
      c.req.raw = new Request(c.req.raw, { body });
      bodyOrganizationId = await peekOrganizationId(c.req.header("content-type"), body);
    }
    const access = await authorize({ rule, params, principal, bodyOrganizationId }, resolver, policy).catch((err) => {
      throw rule.upstream === "mcp" ? pointToOAuth(err, ctx.env.PUBLIC_URL) : err;
    });
    c.set("access", access);
    if (rule.upstream === "control") return next();

    const upstream = rule.upstream === "mcp" ? ctx.upstreams.mcp : ctx.upstreams.tenant;
    if (!upstream) throw new AppError("UNAVAILABLE", "The MCP service is not configured");
    const audience = rule.upstream === "mcp" ? "mcp" : "tenant";
    const serviceToken = access.principal
      ? await ctx.tokens.sign(serviceClaims(access.principal, access, audience), audience)
      : null;
    const forwardPath = rule.forwardPath ?? new URL(c.req.url).pathname;
    return forwardWithWorkspaceAudit(ctx, c, rule, params, access, () =>
      forwardRequest(c, upstream, { path: forwardPath, serviceToken, body, log: ctx.log }),
    );
  };
}

const matchers = new Map<string, ReturnType<typeof createMatcher>>();

/** The lookups the gateway's decisions make, on control's database. */
export function standingResolver(ctx: ControlContext): StandingResolver {
  const known = resolvers.get(ctx);
  if (known) return known;
  // One cache per replica, shared by the gateway and the events streams' re-checks.
  const resolver = cachedStandings(ctx.database, {
    active: (userId, sessionOrganizationId) => resolveActive(ctx.database, userId, sessionOrganizationId),
    organization: (userId, organizationId) => resolveOrganization(ctx.database, userId, organizationId),
    workspace: (userId, workspaceId) => resolveWorkspace(ctx.database, userId, workspaceId),
  });
  resolvers.set(ctx, resolver);
  return resolver;
}
const resolvers = new WeakMap<ControlContext, StandingResolver>();

/** What differs between the profiles' decisions (authorize.ts). */
export const authorizationPolicy = (ctx: ControlContext) => ({ platformAdminBypass: ctx.env.AUTH_MODE === "session" });

/**
 * The gateway's decision for a request again, later (a long-lived answer: the events stream): the same credentials
 * authenticated anew and authorized against the same rule; throws the same 401/403/404 AppError once access is lost.
 */
export async function authorizeAgain(ctx: ControlContext, c: Context<AppEnv>): Promise<Access> {
  const mode = ctx.env.AUTH_MODE;
  const match = matchers.get(mode) ?? createMatcher(routesFor(mode));
  matchers.set(mode, match);
  const found = match(c.req.method, c.req.path);
  if (!found) throw new AppError("NOT_FOUND", "No such route");
  const principal = found.rule.auth === "public" ? null : await ctx.authenticate(c);
  return authorize(
    { rule: found.rule, params: found.params, principal },
    standingResolver(ctx),
    authorizationPolicy(ctx),
  );
}

export function serviceClaims(p: Principal, access: Access, audience: "tenant" | "mcp" = "tenant"): ServiceClaims {
  return {
    userId: p.userId,
    username: p.username,
    organizationId: access.organizationId,
    workspaceId: access.workspaceId,
    role: access.role,
    platformAdmin: p.platformAdmin,
    apiTokenId: p.apiToken?.tokenId ?? null,
    pinnedWorkspaceId: p.apiToken?.pinnedWorkspaceId ?? null,
    teamIds: access.teamIds,
    displayName: p.name,
    via: viaOf(p, audience),
  };
}

/**
 * The way the request came in, recorded by the change log with every change it makes: the MCP endpoint (named after
 * the OAuth client, else the API token), an API token (its name), else the browser (session cookie or local JWT).
 */
export function viaOf(p: Principal, audience: "tenant" | "mcp"): Via {
  const token = p.apiToken;
  if (audience === "mcp") return { kind: "mcp", name: token?.oauthClientName ?? token?.name ?? null };
  if (token) return { kind: "api_token", name: token.name ?? null };
  return { kind: "browser", name: null };
}

/**
 * A 401 of the MCP endpoint tells an MCP client where to sign in (MCP authorization, RFC 9728): its
 * WWW-Authenticate names the protected-resource metadata, which leads to this service's OAuth endpoints.
 */
function pointToOAuth(err: unknown, publicUrl: string): unknown {
  if (!(err instanceof AppError) || err.code !== "UNAUTHENTICATED") return err;
  const metadata = oauthEndpoints(publicUrl).resourceMetadata;
  return new AppError("UNAUTHENTICATED", err.message, {
    headers: { ...err.headers, "WWW-Authenticate": `Bearer resource_metadata="${metadata}"` },
  });
}
