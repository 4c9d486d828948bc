import { randomBytes, randomUUID } from "node:crypto";
import {
  apiTokens,
  colourings,
  invitations,
  memberships,
  oauthClients,
  oauthRequests,
  organizations,
  sessions,
  shareLinks,
  teamMembers,
  teams,
  users,
  validationRules,
  workspaceVersions,
} from "@ams/db";
import { createElement } from "@ams/model";
import { must } from "@ams/shared/testing";
import { eq, sql } from "drizzle-orm";
import { sha256Hex } from "../../src/auth/secrets.ts";
import type { ControlContext } from "../../src/context.ts";
import { consentToken } from "../../src/oauth/pending.ts";
import type { Credentials, Harness } from "./harness.ts";

/** Where a persona's requests aim: its own organization/workspace (or, for non-members, someone else's). */
export type Home = { org: string; ws: string };
export type Prepared = { path: string; body?: unknown; raw?: string; headers?: Record<string, string> };

const OAUTH_REDIRECT = "https://client.test/callback";

/** A dashboard with one table panel, valid for every organization. */
export const dashboardDefinition = (title: string) => ({
  title,
  panels: [
    {
      panelInstanceId: "names",
      title: "Names",
      visualization: "core/table",
      query: "MATCH (e:Element) RETURN e.name AS name LIMIT 5",
      layout: { x: 0, y: 0, w: 6, h: 4 },
    },
  ],
});

const MINIMAL_MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<model xmlns="http://www.opengroup.org/xsd/archimate/3.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" identifier="id-imported">
  <name xml:lang="en">Imported</name>
  <elements>
    <element identifier="id-imported-node" xsi:type="Node"><name xml:lang="en">Imported node</name></element>
  </elements>
</model>`;

/**
 * Real objects for the authorization table, created through the gateway and the real tenant with an owner's API
 * token pinned to the workspace (so no interactive selection can move them), or directly in the database for
 * control-side rows (members, tokens, scratch organizations).
 */
export function createFixtures(h: Harness, ownerToken: string) {
  const as: Credentials = { bearer: ownerToken };
  let n = 0;
  const unique = (p: string) => `${p}-${++n}-${randomBytes(3).toString("hex")}`;
  let oauthClient: Promise<string> | undefined;

  async function post(path: string, body: unknown): Promise<string> {
    const res = await h.call("POST", path, { as, body });
    if (res.status >= 300) throw new Error(`fixture ${path}: ${res.status} ${await res.text()}`);
    const json = (await res.json()) as { id?: string };
    if (!json.id) throw new Error(`fixture ${path}: no id in ${JSON.stringify(json)}`);
    return json.id;
  }

  const f = {
    element: () => post("/api/elements", { name: unique("E"), type: "Node" }),
    async relationship() {
      const [source, target] = [await f.element(), await f.element()];
      return post("/api/relationships", { type: "Association", source, target });
    },
    view: () => post("/api/views", { name: unique("V") }),
    plateau: () => post("/api/elements", { name: unique("P"), type: "Plateau" }),
    /**
     * A version naming the workspace's current revision, written in the database: the caller's home workspace may be
     * in another organization than the fixtures' token (the session profile's platform admin of a suspended one).
     */
    async version(ws: string) {
      const [row] = await h.db
        .insert(workspaceVersions)
        .values({
          workspaceId: ws,
          revision: sql`(select revision from workspaces where id = ${ws})`,
          name: unique("V"),
        })
        .returning({ id: workspaceVersions.id });
      return must(row, "the fixture version").id;
    },
    /** A saved colouring of the workspace, written in the database (as the version above). */
    async colouring(ws: string) {
      const [row] = await h.db
        .insert(colourings)
        .values({ workspaceId: ws, name: unique("C"), colorBy: "relationship_count" })
        .returning({ id: colourings.id });
      return must(row, "the fixture colouring").id;
    },
    /**
     * An element of the given workspace, made through the model's verb: the caller's home may be in another
     * organization than the fixtures' token (the session profile's platform admin of a suspended one).
     */
    async elementIn(ws: string) {
      const ctx = {
        database: h.database,
        userId: "",
        username: "fixtures",
        organizationId: null,
        workspaceId: ws,
        role: "owner" as const,
        platformAdmin: false,
      };
      return (await createElement({ ctx, input: { name: unique("E"), type: "Node" } })).id;
    },
    /** A share link of the workspace (the caller's home may be in another organization than the fixtures' token). */
    async shareLink(ws: string) {
      const [row] = await h.db
        .insert(shareLinks)
        .values({ workspaceId: ws, scope: "report", tokenHash: sha256Hex(randomBytes(32).toString("base64url")) })
        .returning({ id: shareLinks.id });
      return must(row, "the fixture share link").id;
    },
    /** An element and the revision of the change that created it. */
    async createdElement() {
      const res = await h.call("POST", "/api/elements", { as, body: { name: unique("E"), type: "Node" } });
      if (res.status !== 201) throw new Error(`fixture element: ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: string; revision: number };
    },
    /** A relationship or view and the revision of its last change (to restore it to). */
    async withRevision(kind: "relationships" | "views") {
      const id = kind === "views" ? await f.view() : await f.relationship();
      const res = await h.call("GET", `/api/${kind}/${id}`, { as });
      return { id, revision: ((await res.json()) as { revision: number }).revision };
    },
    async node(viewId?: string) {
      const view = viewId ?? (await f.view());
      return { view, node: await post(`/api/views/${view}/nodes`, { element_id: await f.element() }) };
    },
    async connection() {
      const view = await f.view();
      const a = await f.node(view);
      const b = await f.node(view);
      return { view, connection: await post(`/api/views/${view}/connections`, { source: a.node, target: b.node }) };
    },
    async dashboard() {
      const res = await h.call("POST", "/api/dashboards", { as, body: dashboardDefinition(unique("D")) });
      if (res.status !== 201) throw new Error(`fixture dashboard: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { dashboardId: string }).dashboardId;
    },
    /** A dashboard that has been soft-deleted (what restore brings back). */
    async deletedDashboard() {
      const id = await f.dashboard();
      const res = await h.call("DELETE", `/api/dashboards/${id}`, { as });
      if (res.status !== 204) throw new Error(`fixture deleted dashboard: ${res.status} ${await res.text()}`);
      return id;
    },
    propertyDefinition: () => post("/api/property-definitions", { name: unique("P"), type: "string" }),
    async workspace(org: string) {
      return (await h.workspace(org, unique("W"))).id;
    },
    /** An open, empty draft of workspace `ws` by nobody in particular (only an owner may discard it), in the database. */
    async draft(ws: string) {
      const name = unique("Draft");
      const [row] = (await h.db.execute(
        sql`with w as (insert into workspaces (organization_id, name)
              select organization_id, ${name} from workspaces where id = ${ws} returning id, organization_id)
            insert into drafts (workspace_id, organization_id, base_workspace_id, base_name, base_revision)
            select w.id, w.organization_id, ${ws}, 'Base', (select revision from workspaces where id = ${ws}) from w
            returning workspace_id as id`,
      )) as unknown as { id: string }[];
      return must(row, "the fixture draft").id;
    },
    /** A user row without credentials (enough to be a member). */
    async account() {
      const id = randomUUID();
      const username = unique("acct");
      await h.db.insert(users).values({ id, username, name: username, email: `${username}@test.example` });
      return { id, username };
    },
    /** An account with a local password, for sign-in. */
    async localAccount() {
      const username = unique("login");
      const user = await h.user(username);
      return { id: user.id, username, password: user.password };
    },
    async member(org: string, role = "viewer") {
      const acct = await f.account();
      await h.db.insert(memberships).values({ organizationId: org, userId: acct.id, role });
      return acct.id;
    },
    /** Another session of the user (session profile), as if signed in elsewhere: what revoking one ends. */
    async spareSession(userId: string) {
      const id = randomUUID();
      const expiresAt = new Date(h.clock.now().getTime() + 24 * 3600_000);
      await h.db.insert(sessions).values({ id, token: randomBytes(24).toString("hex"), userId, expiresAt });
      return id;
    },
    async team(org: string) {
      const [row] = await h.db
        .insert(teams)
        .values({ organizationId: org, name: unique("T") })
        .returning();
      return must(row, "the fixture team").id;
    },
    /** An organization's validation rule, written in the database (the persona's home may be any organization). */
    async validationRule(org: string) {
      const [row] = await h.db
        .insert(validationRules)
        .values({ organizationId: org, ord: 1, type: "max_nesting", severity: "warning", params: { depth: 3 } })
        .returning();
      return must(row, "the fixture validation rule").id;
    },
    async teamMember(team: string, userId: string) {
      await h.db.insert(teamMembers).values({ teamId: team, userId });
    },
    async token(userId: string, org: string) {
      const [row] = await h.db
        .insert(apiTokens)
        .values({ userId, organizationId: org, name: "t", prefix: "ams_pat_x", tokenHash: sha256Hex(randomUUID()) })
        .returning();
      return must(row, "the fixture API token").id;
    },
    /** An organization with two owners, for platform routes that change or delete it. */
    async scratchOrganization() {
      const slug = unique("scratch");
      const [inserted] = await h.db.insert(organizations).values({ name: slug, slug }).returning();
      const org = must(inserted, "the scratch organization");
      await f.member(org.id, "owner");
      await f.member(org.id, "owner");
      return org.id;
    },
    /**
     * An active invitation and its clear token. For a user, it is addressed to their e-mail (in a scratch
     * organization, one per call) and that address is marked verified: API tokens read the flag live, while the
     * table's signed-in sessions keep the unverified claim they were issued with.
     */
    async invitation(org: string | null, forUserId?: string) {
      let email = `${unique("invitee")}@test.example`;
      if (forUserId) {
        const [user] = await h.db
          .update(users)
          .set({ emailVerified: true })
          .where(eq(users.id, forUserId))
          .returning({ email: users.email });
        email = must(user, `the user ${forUserId}`).email;
      }
      const token = randomBytes(32).toString("base64url");
      const [row] = await h.db
        .insert(invitations)
        .values({
          organizationId: org ?? (await f.scratchOrganization()),
          email,
          role: "viewer",
          deliveryMode: "manual",
          tokenHash: sha256Hex(token),
          expiresAt: new Date(h.clock.now().getTime() + 3600_000),
        })
        .returning();
      return { id: must(row, "the fixture invitation").id, token };
    },
    /**
     * A pending MCP OAuth authorization request made through the real authorization endpoint (one registered client
     * for the whole table), optionally already opened by `userId`: its handle, and the consent value the page got.
     */
    async oauthRequest(userId?: string) {
      oauthClient ??= (async () => {
        const clientId = `mcp_table_${randomBytes(6).toString("hex")}`;
        await h.db
          .insert(oauthClients)
          .values({ clientId, clientName: "Table client", redirectUris: [OAUTH_REDIRECT] });
        return clientId;
      })();
      const query = new URLSearchParams({
        response_type: "code",
        client_id: await oauthClient,
        redirect_uri: OAUTH_REDIRECT,
        code_challenge: randomBytes(32).toString("base64url"),
        code_challenge_method: "S256",
        state: "table",
      });
      const res = await h.call("GET", `/oauth/authorize?${query}`);
      const handle = new URL(res.headers.get("location") ?? "", "http://control.test").searchParams.get("request");
      if (!handle) throw new Error(`fixture oauthRequest: ${res.status} ${await res.text()}`);
      if (!userId) return { handle, consent: "" };
      await h.db
        .update(oauthRequests)
        .set({ userId })
        .where(eq(oauthRequests.handleHash, sha256Hex(handle)));
      return { handle, consent: consentToken({ env: h.env } as ControlContext, userId, handle) };
    },
    importBody: (): Prepared => ({
      path: "/api/import",
      raw: MINIMAL_MODEL,
      headers: { "content-type": "application/xml" },
    }),
  };
  return f;
}

export type Fixtures = ReturnType<typeof createFixtures>;
