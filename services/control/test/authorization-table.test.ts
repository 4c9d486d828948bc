import { randomUUID } from "node:crypto";
import { apiTokens, type Database, organizations } from "@ams/db";
import { createServiceTokens, type OrgRole, roleHas, silentLogger } from "@ams/shared";
import { must } from "@ams/shared/testing";
import { createTenantApp } from "@ams/tenant";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { generateApiToken } from "../src/auth/api-token-format.ts";
import { type RouteRule, routesFor, routeTable } from "../src/gateway/routes.ts";
import { type Credentials, cookiesOf, createHarness, type Harness } from "./support/harness.ts";
import { createFixtures, type Fixtures, type Home } from "./support/table-fixtures.ts";
import { type Caller, requests, ruleKey } from "./support/table-requests.ts";

/**
 * THE access specification, run end to end: every route of the table x every kind of caller, through the real
 * gateway into the real tenant app on a real PostgreSQL database. The expected status is derived here from the
 * spec's rules (not from the gateway's code); a route that control or tenant serves but the table lacks fails.
 */
type Persona = {
  name: string;
  creds: Credentials;
  kind: "none" | "session" | "token";
  /** Revoked or expired: presented, but no longer valid. */
  dead?: boolean;
  platformAdmin: boolean;
  /** Role in the organization the persona's requests aim at (home), null when no member there. */
  role: OrgRole | null;
  anyMembership: boolean;
  suspended: boolean;
  home: Home;
  userId: string | null;
  password: string | null;
};

type Expected = number | "allowed";

function expected(rule: RouteRule, p: Persona): Expected {
  if (rule.auth === "public") return "allowed";
  if (p.kind === "none" || p.dead) return 401;
  if (rule.auth === "api-token" && p.kind !== "token") return 401;
  if (rule.auth === "session" && p.kind === "token") return 403;
  if (rule.admin === "required" && !p.platformAdmin) return 403;
  if (rule.admin === "refused" && p.platformAdmin) return 403;
  if (rule.target === "none") return "allowed";
  if (p.role === null) return rule.target === "body-org-or-active" && !p.anyMembership ? 403 : 404;
  if (p.suspended) return 403;
  if (rule.need && !roleHas(p.role, rule.need)) return 403;
  return "allowed";
}

/** What "allowed" answers when the route is reached with a well-formed request. */
const passedAccess = (s: number) => s !== 401 && s !== 403;
const allowedStatus: Record<string, (s: number, p: Persona) => boolean> = {
  // Past the gateway (model:write) only its author, an owner/admin or a platform admin discards a draft (the
  // fixture's drafts have no author): drafts/review.ts.
  "POST /api/drafts/:id/discard": (s, p) =>
    s === (p.role === "owner" || p.role === "admin" || p.platformAdmin ? 200 : 403),
  // Signed-in browsers carry a refresh cookie (204); bearer callers have none (401 by design, see refresh.test.ts).
  "POST /api/auth/refresh": (s, p) => s === (p.kind === "session" ? 204 : 401),
  // Plugin semantics (404 for an unknown or disabled pack) belong to the plugins issue: access is what counts here.
  "GET /api/plugins/:pluginSlug/icons/:iconSlug": passedAccess,
  // A made-up share-link token: the gateway passes it on, the tenant knows no such link (share-links.test.ts uses real ones).
  "GET /s/:token": (s) => s === 404,
  "GET /s/:token/:file": (s) => s === 404,
  "GET /s/:token/:dir/:file": (s) => s === 404,
  "GET /api/platform/plugins/:slug": passedAccess,
  "PUT /api/platform/plugins/:slug": passedAccess,
  "GET /api/platform/plugins/:slug/icons/:iconSlug": passedAccess,
  // This harness runs the tenant without a graph database (503, "not enabled"): access is what counts here; the
  // graph routes' answers are covered against a real Neo4j in services/tenant/test/{graph,explore,dashboards}.test.ts.
  "POST /api/export/neo4j": passedAccess,
  "GET /api/export/neo4j/jobs/:jobId": passedAccess,
  "GET /api/dashboards/:dashboardId/panels/:panelInstanceId": passedAccess,
  "POST /api/explore": passedAccess,
  // Past the gateway the invitation guard wants a verified e-mail claim: the sessions here were signed in unverified
  // (403), API tokens read the flag live and pass (invitations.test.ts covers the guard itself).
  "GET /api/invitations/:token": (s, p) => s === (p.kind === "token" ? 200 : 403),
  "POST /api/invitations/:token/accept": (s, p) => s === (p.kind === "token" ? 200 : 403),
  // Past the gateway the password checks share one address's sign-in limit (422, then 429), there is no enrolment
  // to confirm (409) and a made-up challenge is refused (401): auth/two-factor.test.ts covers the real flows.
  "POST /api/auth/two-factor/enrol": passedAccess,
  "POST /api/auth/two-factor/confirm": (s) => s === 409,
  "POST /api/auth/two-factor/disable": passedAccess,
  "POST /api/auth/two-factor/recovery-codes": (s) => s === 409,
  "POST /api/auth/local/login/two-factor": (s) => s === 401,
  // This harness has no SMTP server: the route is reached and refuses to promise a mail it cannot send (503);
  // password-reset.test.ts runs it with one.
  "POST /api/auth/local/forgot-password": (s) => s === 503,
  // A placeholder link: reached, and refused as unknown (password-reset.test.ts uses mailed ones).
  "POST /api/auth/local/reset-password": (s) => s === 404,
  // Past the gateway (model:write) only an owner deletes a version (history/versions.ts).
  "DELETE /api/workspaces/:id/versions/:versionId": (s, p) => s === (p.role === "owner" ? 204 : 403),
};
const isSuccess = (s: number) => s >= 200 && s < 400;

let h: Harness;
let f: Fixtures;
let personas: Persona[];
let tenantRoutes: { method: string; path: string }[] = [];
const reached = { tenant: 0 };

const norm = (path: string) => path.replace(/:[^/]+/g, ":");
/** The rows this profile serves; the session profile's own (teams, /auth/sessions) run in session/. */
const local = routesFor("local");
const servedByTenant = (rule: RouteRule) =>
  tenantRoutes.some((r) => r.method === rule.method && norm(r.path) === norm(rule.path));

beforeAll(async () => {
  h = await createHarness({
    tenant: ({ database, tokens }) => {
      const tenant = createTenantApp({ database, tokens, log: silentLogger });
      tenantRoutes = tenant.routes.filter((r) => r.method !== "ALL");
      // The real tenant; the wrapper only counts that the gateway let a request through.
      return {
        fetch: (req: Request) => {
          reached.tenant++;
          return tenant.fetch(req);
        },
      };
    },
  });
  const [owner, editor, viewer, adminMember, adminAlone, stranger, suspendedOwner] = await Promise.all([
    h.user("t-owner"),
    h.user("t-editor"),
    h.user("t-viewer"),
    h.user("t-admin-member", { platformAdmin: true }),
    h.user("t-admin", { platformAdmin: true }),
    h.user("t-stranger"),
    h.user("t-suspended"),
  ]);
  const orgA = await h.org("Table A", [
    [owner, "owner"],
    [editor, "editor"],
    [viewer, "viewer"],
    [adminMember, "editor"],
  ]);
  const wa = await h.workspace(orgA.id, "WA");
  const orgS = await h.org("Table S", [[suspendedOwner, "owner"]]);
  const ws = await h.workspace(orgS.id, "WS");
  const A: Home = { org: orgA.id, ws: wa.id };
  const S: Home = { org: orgS.id, ws: ws.id };

  const [sOwner, sEditor, sViewer, sAdminMember, sAdmin, sStranger, sSuspended] = await Promise.all([
    h.session(owner),
    h.session(editor),
    h.session(viewer),
    h.session(adminMember),
    h.session(adminAlone),
    h.session(stranger),
    h.session(suspendedOwner),
  ]);
  const token = async (as: Credentials, body: Record<string, unknown>) => {
    const res = await h.call("POST", "/api/settings/api-tokens", { as, body });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: string; token: string };
  };
  const fixtureToken = await token(sOwner, { organization_id: A.org, workspace_id: A.ws });
  const [tOwner, tEditor, tViewer, tRevoked] = await Promise.all([
    token(sOwner, { organization_id: A.org }),
    token(sEditor, { organization_id: A.org }),
    token(sViewer, { organization_id: A.org }),
    token(sEditor, { organization_id: A.org }),
  ]);
  expect((await h.call("DELETE", `/api/settings/api-tokens/${tRevoked.id}`, { as: sEditor })).status).toBe(204);
  const expiredSecret = generateApiToken();
  await h.db.insert(apiTokens).values({
    userId: editor.id,
    organizationId: A.org,
    name: "expired",
    prefix: expiredSecret.prefix,
    tokenHash: expiredSecret.tokenHash,
    expiresAt: new Date(h.clock.now().getTime() - 60_000),
  });
  await h.db.update(organizations).set({ enabled: false }).where(eq(organizations.id, S.org));

  const base = { dead: false, platformAdmin: false, anyMembership: true, suspended: false, home: A };
  const member = (u: { id: string; password: string }, role: OrgRole) => ({ role, userId: u.id, password: u.password });
  personas = [
    {
      ...base,
      name: "unauthenticated",
      creds: null,
      kind: "none",
      role: null,
      anyMembership: false,
      userId: null,
      password: null,
    },
    {
      ...base,
      name: "non-member",
      creds: sStranger,
      kind: "session",
      role: null,
      anyMembership: false,
      userId: stranger.id,
      password: stranger.password,
    },
    { ...base, name: "viewer", creds: sViewer, kind: "session", ...member(viewer, "viewer") },
    { ...base, name: "editor", creds: sEditor, kind: "session", ...member(editor, "editor") },
    { ...base, name: "owner", creds: sOwner, kind: "session", ...member(owner, "owner") },
    {
      ...base,
      name: "Admin without membership",
      creds: sAdmin,
      kind: "session",
      platformAdmin: true,
      role: null,
      anyMembership: false,
      userId: adminAlone.id,
      password: adminAlone.password,
    },
    {
      ...base,
      name: "Admin with membership (editor)",
      creds: sAdminMember,
      kind: "session",
      platformAdmin: true,
      ...member(adminMember, "editor"),
    },
    {
      ...base,
      name: "member of a suspended organization",
      creds: sSuspended,
      kind: "session",
      suspended: true,
      home: S,
      ...member(suspendedOwner, "owner"),
    },
    {
      ...base,
      name: "API token (viewer)",
      creds: { bearer: tViewer.token },
      kind: "token",
      ...member(viewer, "viewer"),
    },
    {
      ...base,
      name: "API token (editor)",
      creds: { bearer: tEditor.token },
      kind: "token",
      ...member(editor, "editor"),
    },
    { ...base, name: "API token (owner)", creds: { bearer: tOwner.token }, kind: "token", ...member(owner, "owner") },
    {
      ...base,
      name: "revoked API token",
      creds: { bearer: tRevoked.token },
      kind: "token",
      dead: true,
      ...member(editor, "editor"),
    },
    {
      ...base,
      name: "expired API token",
      creds: { bearer: expiredSecret.token },
      kind: "token",
      dead: true,
      ...member(editor, "editor"),
    },
  ] as Persona[];
  f = createFixtures(h, fixtureToken.token);
}, 60_000);
afterAll(() => h.close());

describe("the table covers every served route", () => {
  test("every route control serves under /api and /mcp is in the table", () => {
    // The gateway guards /api and /mcp; the OAuth endpoints (/oauth/*, /.well-known/*) are public by nature and
    // checked in services/mcp/test/oauth.test.ts.
    const missing = h.app.routes
      .filter((r) => r.method !== "ALL")
      .filter((r) => !/^\/(oauth|\.well-known)\//.test(r.path))
      .filter((r) => !local.some((t) => t.method === r.method && norm(t.path) === norm(r.path)))
      .map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
  });

  test("every route tenant serves is in the table", () => {
    expect(tenantRoutes.length).toBeGreaterThan(0);
    const missing = tenantRoutes
      .filter((r) => !routeTable.some((t) => t.method === r.method && norm(t.path) === norm(r.path)))
      .map((r) => `${r.method} ${r.path}`);
    expect([...new Set(missing)]).toEqual([]);
  });

  test("every table row has a request builder", () => {
    expect(routeTable.map(ruleKey).filter((k) => !requests[k])).toEqual([]);
  });
});

/** Signing out ends the access token it carries: the table's shared sessions must outlive the logout row. */
function withoutAccessCookie(creds: Credentials): Credentials {
  if (!creds || !("cookies" in creds)) return creds;
  const { access_token: _ended, ...rest } = creds.cookies;
  return { cookies: rest };
}

describe("route x caller -> status", () => {
  for (const rule of local) {
    test(ruleKey(rule), async () => {
      const mismatches: string[] = [];
      for (const p of personas) {
        const want = expected(rule, p);
        const caller: Caller = { home: p.home, userId: p.userId, password: p.password };
        const prepared = await must(requests[ruleKey(rule)], `the request of ${ruleKey(rule)}`)(
          f,
          caller,
          want === "allowed",
        );
        if (p.userId && p.kind !== "none") await h.select(p.userId, p.home.org, p.home.ws);
        const before = { tenant: reached.tenant, mcp: (h.mcp as unknown as { calls: unknown[] }).calls.length };
        const res = await h.call(rule.method, prepared.path, {
          as: ruleKey(rule).endsWith(" /api/auth/logout") ? withoutAccessCookie(p.creds) : p.creds,
          body: prepared.body,
          raw: prepared.raw,
          headers: prepared.headers,
        });
        const got = res.status;
        if (ruleKey(rule) === "POST /api/auth/change-password" && got < 300 && p.creds && "cookies" in p.creds) {
          // A password change ends every other session and access token of the user, the table's shared session
          // included: the persona goes on with the new session the response set.
          Object.assign(p.creds.cookies, cookiesOf(res));
        }
        const forwarded =
          rule.upstream === "tenant"
            ? reached.tenant > before.tenant
            : rule.upstream === "mcp"
              ? (h.mcp as unknown as { calls: unknown[] }).calls.length > before.mcp
              : null;
        let ok: boolean;
        if (want === "allowed") {
          const servedElsewhere = rule.upstream === "tenant" && !servedByTenant(rule);
          // A route the tenant does not serve yet: passing the gateway is all that can be checked.
          ok = servedElsewhere ? forwarded === true : (allowedStatus[ruleKey(rule)] ?? isSuccess)(got, p);
          if (forwarded === false) ok = false;
        } else {
          ok = got === want && forwarded !== true;
        }
        if (!ok) {
          const detail = got >= 400 ? ((await res.json().catch(() => ({}))) as { detail?: string }).detail : "";
          mismatches.push(`${p.name}: expected ${want}, got ${got}${forwarded ? " (forwarded)" : ""} ${detail ?? ""}`);
        }
      }
      expect(mismatches).toEqual([]);
    }, 60_000);
  }
});

describe("the table and the tenant agree", () => {
  test("every tenant route of the table is served by the tenant, and every tenant route is in the table", () => {
    // Routes are known without a database: building the app only registers them.
    const declared = createTenantApp({
      database: {} as Database,
      tokens: createServiceTokens(randomUUID() + randomUUID()),
    }).routes.filter((r) => r.method !== "ALL" && (r.path.startsWith("/api") || r.path.startsWith("/s/")));
    const served = (rule: RouteRule) =>
      declared.some((r) => r.method === rule.method && norm(r.path) === norm(rule.path));
    expect(routeTable.filter((r) => r.upstream === "tenant" && !served(r)).map(ruleKey)).toEqual([]);
    const listed = (route: { method: string; path: string }) =>
      // Health and the OpenAPI document are answered by control itself (it merges the tenant's document).
      routeTable.some((r) => r.method === route.method && norm(r.path) === norm(route.path));
    expect(declared.filter((r) => !listed(r)).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });
});
