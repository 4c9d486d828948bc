import { teamMembers, teams, workspaceTeams } from "@ams/db";
import { type OrgRole, roleHas, silentLogger } from "@ams/shared";
import { must } from "@ams/shared/testing";
import { createTenantApp } from "@ams/tenant";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RouteRule, routesFor } from "../../src/gateway/routes.ts";
import { ALLOWED_BETTER_AUTH } from "../../src/session/routes.ts";
import { type Credentials, cookie, cookiesOf, createHarness, type Harness, type TestUser } from "../support/harness.ts";
import { firstRow } from "../support/rows.ts";
import { createFixtures, type Fixtures, type Home } from "../support/table-fixtures.ts";
import { type Caller, requests, ruleKey } from "../support/table-requests.ts";

/**
 * The access specification of the session profile (AUTH_MODE=session), end to end: every route of the table x
 * every kind of caller, through the real gateway into the real tenant app on a real PostgreSQL database. Expected
 * statuses come from the spec's rules for this profile: owner/admin/member (member reads only), platform_admin
 * bypassing organization checks, a suspended organization, teams (a workspace assigned to a team is hidden from a
 * member outside it), API tokens (for the whole organization, and pinned to one workspace: the requests' own, another
 * one, a team-restricted one), and the local profile's sign-in routes not being offered.
 */
type Persona = {
  name: string;
  creds: Credentials;
  kind: "none" | "session" | "token";
  platformAdmin: boolean;
  role: OrgRole | null;
  anyMembership: boolean;
  suspended: boolean;
  /** A member outside the team of the workspace their requests aim at. */
  outsideTeam: boolean;
  /** The table's content fixtures are in another workspace than this persona's active one (found: 404 there). */
  fixturesElsewhere?: boolean;
  /**
   * An API token pinned to one workspace: the one the requests aim at ("home") or another one ("elsewhere"). A pinned
   * token reaches no other workspace by id and creates none.
   */
  pinned?: "home" | "elsewhere";
  home: Home;
  userId: string | null;
  password: string | null;
};
type Expected = number | "allowed" | "past-gateway";

/** The local profile's sign-in surface: in this profile control does not serve it (404 past the gateway). */
const LOCAL_AUTH = new Set([
  "POST /api/auth/local/login",
  "POST /api/auth/refresh",
  "POST /api/auth/logout",
  "GET /api/auth/logout",
  "GET /api/auth/login",
  "GET /api/auth/callback",
  "POST /api/auth/local/forgot-password",
  "POST /api/auth/local/reset-password",
]);

function expected(rule: RouteRule, p: Persona): Expected {
  if (rule.auth === "public") return LOCAL_AUTH.has(ruleKey(rule)) ? 404 : "allowed";
  if (p.kind === "none") return 401;
  if (rule.auth === "api-token" && p.kind !== "token") return 401;
  if (rule.auth === "session" && p.kind === "token") return 403;
  if (rule.admin === "required" && !p.platformAdmin) return 403;
  if (rule.admin === "refused" && p.platformAdmin) return 403;
  if (rule.target === "none") return "allowed";
  if (p.platformAdmin && p.kind === "session") {
    // The bypass needs a target: with no membership there is no active organization to act in.
    if (!p.anyMembership && (rule.target === "active-org" || rule.target === "active-workspace")) return 404;
    if (!p.anyMembership && rule.target === "body-org-or-active") return 403;
    // The table's content fixtures live in organization A: in the suspended organization the bypass shows as
    // passing the gateway (not 403), the tenant then finds no such object there.
    if (p.suspended && rule.target === "active-workspace") return "past-gateway";
    return "allowed";
  }
  if (p.role === null) return rule.target === "body-org-or-active" && !p.anyMembership ? 403 : 404;
  if (p.pinned && rule.target === "body-org-or-active") return 403;
  if (p.pinned === "elsewhere" && rule.target === "workspace-param") return 404;
  if (p.outsideTeam && rule.target === "workspace-param") return 404;
  if (p.suspended) return 403;
  if (rule.need && !roleHas(p.role, rule.need)) return 403;
  // Outside the team the active workspace is none: the tenant answers, but no content is reached.
  if ((p.outsideTeam || p.fixturesElsewhere) && rule.target === "active-workspace") return "past-gateway";
  // A request that would succeed aims these routes at a fresh workspace: not the one the token is pinned to.
  if (p.pinned && rule.target === "workspace-param" && FRESH_WORKSPACE.has(ruleKey(rule))) return 404;
  return "allowed";
}

/**
 * Workspace routes whose request builder aims at a fresh workspace of the organization, not the caller's home one
 * (a draft is a workspace of its own: a token pinned to its base does not reach it).
 */
const FRESH_WORKSPACE = new Set([
  "DELETE /api/workspaces/:id",
  "PUT /api/workspaces/:id/teams",
  "GET /api/drafts/:id",
  "GET /api/drafts/:id/changes",
  "GET /api/drafts/:id/conflicts",
  "POST /api/drafts/:id/merge",
  "POST /api/drafts/:id/submit",
  "POST /api/drafts/:id/reviews",
  "POST /api/drafts/:id/comments",
  "POST /api/drafts/:id/discard",
]);

const passedAccess = (s: number) => s !== 401 && s !== 403;
const allowedStatus: Record<string, (s: number, p: Persona) => boolean> = {
  // Past the gateway (model:write) only its author, an owner/admin or a platform admin discards a draft (the
  // fixture's drafts have no author): drafts/review.ts.
  "POST /api/drafts/:id/discard": (s, p) =>
    s === (p.role === "owner" || p.role === "admin" || p.platformAdmin ? 200 : 403),
  "GET /api/plugins/:pluginSlug/icons/:iconSlug": passedAccess,
  // A made-up share-link token: the gateway passes it on, the tenant knows no such link (share-links.test.ts uses real ones).
  "GET /s/:token": (s) => s === 404,
  "GET /s/:token/:file": (s) => s === 404,
  "GET /s/:token/:dir/:file": (s) => s === 404,
  "GET /api/platform/plugins/:slug": passedAccess,
  "PUT /api/platform/plugins/:slug": passedAccess,
  "GET /api/platform/plugins/:slug/icons/:iconSlug": passedAccess,
  // No graph database in this harness (503): access is what counts (the four-process suite runs the graph).
  "POST /api/export/neo4j": passedAccess,
  "GET /api/export/neo4j/jobs/:jobId": passedAccess,
  "GET /api/dashboards/:dashboardId/panels/:panelInstanceId": passedAccess,
  "POST /api/explore": passedAccess,
  // The invitation guard wants a verified e-mail (these accounts are unverified); tokens read the flag live.
  "GET /api/invitations/:token": (s, p) => s === (p.kind === "token" ? 200 : 403),
  "POST /api/invitations/:token/accept": (s, p) => s === (p.kind === "token" ? 200 : 403),
  // In this profile the password is better-auth's (POST /auth/change-password): the local route refuses past the
  // gateway, naming why (skipping a forced change works in both profiles).
  "POST /api/auth/change-password": (s) => s === 403,
  // Two-factor is better-auth's here (/auth/two-factor/*): the local profile's routes refuse past the gateway.
  "POST /api/auth/two-factor/enrol": (s) => s === 403,
  "POST /api/auth/two-factor/confirm": (s) => s === 403,
  "POST /api/auth/two-factor/disable": (s) => s === 403,
  "POST /api/auth/two-factor/recovery-codes": (s) => s === 403,
  "POST /api/auth/local/login/two-factor": (s) => s === 403,
  // The change to revert is made with the fixtures' token in their workspace; the platform admin's home workspace is
  // in another (suspended) organization, where that revision does not exist (422 past the gateway). Access is what
  // this table checks; the local table and the model's history tests check the revert itself.
  "POST /api/workspaces/:id/history/:revision/revert": passedAccess,
};
const isSuccess = (s: number) => s >= 200 && s < 400;

let h: Harness;
let f: Fixtures;
let personas: Persona[];
const ORIGIN = "http://control.test";

let clients = 0;
/** Each persona signs in from its own address: parallel sign-ins from one address count against its limit. */
async function signIn(user: TestUser): Promise<Credentials> {
  const res = await h.call("POST", "/auth/sign-in/username", {
    body: { username: user.username, password: user.password },
    headers: { origin: ORIGIN, "x-forwarded-for": `10.9.0.${++clients}` },
  });
  expect(res.status).toBe(200);
  const jar = cookiesOf(res);
  const name = must(
    Object.keys(jar).find((n) => n.endsWith("session_token")),
    `the session cookie of ${user.username}`,
  );
  return { cookies: { [name]: cookie(jar, name) } };
}

beforeAll(async () => {
  h = await createHarness({
    env: { AUTH_MODE: "session" },
    tenant: ({ database, tokens }) => createTenantApp({ database, tokens, log: silentLogger }),
  });
  const [owner, admin, member, team, outside, stranger, suspendedOwner, root, rootMember] = await Promise.all([
    h.user("s-owner"),
    h.user("s-admin"),
    h.user("s-member"),
    h.user("s-team"),
    h.user("s-outside"),
    h.user("s-stranger"),
    h.user("s-suspended"),
    h.user("s-root", { platformAdmin: true }),
    h.user("s-root-m", { platformAdmin: true }),
  ]);
  const orgA = await h.org("Session A", [
    [owner, "owner"],
    [admin, "admin"],
    [member, "member"],
    [team, "member"],
    [outside, "member"],
  ]);
  const wa = await h.workspace(orgA.id, "WA");
  const wr = await h.workspace(orgA.id, "Restricted");
  const core = await firstRow(
    h.db.insert(teams).values({ organizationId: orgA.id, name: "Core" }).returning(),
    "team Core",
  );
  await h.db.insert(teamMembers).values({ teamId: core.id, userId: team.id });
  await h.db.insert(workspaceTeams).values({ workspaceId: wr.id, teamId: core.id });
  const orgS = await h.org(
    "Session S",
    [
      [suspendedOwner, "owner"],
      [rootMember, "member"],
    ],
    false,
  );
  const ws = await h.workspace(orgS.id, "WS");
  const A: Home = { org: orgA.id, ws: wa.id };
  const R: Home = { org: orgA.id, ws: wr.id };
  const S: Home = { org: orgS.id, ws: ws.id };

  const [sOwner, sAdmin, sMember, sTeam, sOutside, sStranger, sSuspended, sRoot, sRootMember] = await Promise.all([
    signIn(owner),
    signIn(admin),
    signIn(member),
    signIn(team),
    signIn(outside),
    signIn(stranger),
    signIn(suspendedOwner),
    signIn(root),
    signIn(rootMember),
  ]);
  const token = async (as: Credentials, body: Record<string, unknown>) => {
    const res = await h.call("POST", "/api/settings/api-tokens", { as, body, headers: { origin: ORIGIN } });
    expect(res.status).toBe(201);
    return ((await res.json()) as { token: string }).token;
  };
  const fixtureToken = await token(sOwner, { organization_id: A.org, workspace_id: A.ws });
  const tOwner = await token(sOwner, { organization_id: A.org });
  const tMember = await token(sMember, { organization_id: A.org });
  const tMemberPinned = await token(sMember, { organization_id: A.org, workspace_id: A.ws });
  const tOwnerPinnedElsewhere = await token(sOwner, { organization_id: A.org, workspace_id: R.ws });
  const tTeamPinned = await token(sTeam, { organization_id: A.org, workspace_id: R.ws });

  const base = {
    platformAdmin: false,
    anyMembership: true,
    suspended: false,
    outsideTeam: false,
    home: A,
  };
  const as = (u: TestUser, role: OrgRole | null) => ({ role, userId: u.id, password: u.password });
  personas = [
    { ...base, name: "unauthenticated", creds: null, kind: "none", role: null, userId: null, password: null },
    { ...base, name: "non-member", creds: sStranger, kind: "session", anyMembership: false, ...as(stranger, null) },
    { ...base, name: "member", creds: sMember, kind: "session", ...as(member, "member") },
    { ...base, name: "admin", creds: sAdmin, kind: "session", ...as(admin, "admin") },
    { ...base, name: "owner", creds: sOwner, kind: "session", ...as(owner, "owner") },
    {
      ...base,
      name: "team member (restricted workspace)",
      creds: sTeam,
      kind: "session",
      home: R,
      fixturesElsewhere: true,
      ...as(team, "member"),
    },
    {
      ...base,
      name: "member outside the team (restricted workspace)",
      creds: sOutside,
      kind: "session",
      home: R,
      outsideTeam: true,
      ...as(outside, "member"),
    },
    {
      ...base,
      name: "platform_admin without membership",
      creds: sRoot,
      kind: "session",
      platformAdmin: true,
      anyMembership: false,
      ...as(root, null),
    },
    {
      ...base,
      name: "platform_admin, member of a suspended organization",
      creds: sRootMember,
      kind: "session",
      platformAdmin: true,
      suspended: true,
      home: S,
      ...as(rootMember, "member"),
    },
    {
      ...base,
      name: "owner of a suspended organization",
      creds: sSuspended,
      kind: "session",
      suspended: true,
      home: S,
      ...as(suspendedOwner, "owner"),
    },
    { ...base, name: "API token (member)", creds: { bearer: tMember }, kind: "token", ...as(member, "member") },
    { ...base, name: "API token (owner)", creds: { bearer: tOwner }, kind: "token", ...as(owner, "owner") },
    {
      ...base,
      name: "API token pinned to its workspace (member)",
      creds: { bearer: tMemberPinned },
      kind: "token",
      pinned: "home",
      ...as(member, "member"),
    },
    {
      ...base,
      name: "API token pinned to another workspace (owner)",
      creds: { bearer: tOwnerPinnedElsewhere },
      kind: "token",
      pinned: "elsewhere",
      fixturesElsewhere: true,
      ...as(owner, "owner"),
    },
    {
      ...base,
      name: "API token pinned to the restricted workspace (team member)",
      creds: { bearer: tTeamPinned },
      kind: "token",
      pinned: "home",
      home: R,
      fixturesElsewhere: true,
      ...as(team, "member"),
    },
  ] as Persona[];
  f = createFixtures(h, fixtureToken);
}, 120_000);
afterAll(() => h.close());

const table = routesFor("session");
const norm = (path: string) => path.replace(/:[^/]+/g, ":");

describe("the session profile's table covers every route control serves", () => {
  test("every /api, /mcp and /auth route is in the table, except the allow-listed better-auth endpoints", () => {
    const betterAuth = (method: string, path: string) =>
      ALLOWED_BETTER_AUTH.some((a) => a.method === method && `/auth${a.path}` === path);
    const missing = h.app.routes
      .filter((r) => r.method !== "ALL" && /^\/(api|mcp|auth)(\/|$)/.test(r.path))
      .filter((r) => !betterAuth(r.method, r.path))
      .filter((r) => !table.some((t) => t.method === r.method && norm(t.path) === norm(r.path)))
      .map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
    expect(table.some((t) => t.path === "/api/organizations/:id/teams")).toBe(true);
    expect(table.some((t) => t.path === "/auth/sessions")).toBe(true);
  });
});

describe("session profile: route x caller -> status", () => {
  for (const rule of table) {
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
        // The shared builders speak the local profile's role names; this profile's member role reads the same way.
        const body = prepared.body as { role?: string } | undefined;
        if (body?.role === "editor" || body?.role === "viewer") prepared.body = { ...body, role: "member" };
        if (p.userId && p.kind !== "none") await h.select(p.userId, p.home.org, p.home.ws);
        const res = await h.call(rule.method, prepared.path, {
          as: p.creds,
          body: prepared.body,
          raw: prepared.raw,
          headers: { origin: ORIGIN, ...prepared.headers },
        });
        const got = res.status;
        const ok =
          want === "allowed"
            ? (allowedStatus[ruleKey(rule)] ?? isSuccess)(got, p)
            : want === "past-gateway"
              ? passedAccess(got)
              : got === want;
        if (!ok) {
          const detail = got >= 400 ? ((await res.json().catch(() => ({}))) as { detail?: string }).detail : "";
          mismatches.push(`${p.name}: expected ${want}, got ${got} ${detail ?? ""}`);
        }
      }
      expect(mismatches).toEqual([]);
    }, 60_000);
  }
});
