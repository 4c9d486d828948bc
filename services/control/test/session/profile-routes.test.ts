import { teams } from "@ams/db";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Credentials, cookiesOf, createHarness, type Harness, type TestUser } from "../support/harness.ts";

/**
 * Routes that exist in one profile only: teams and the /auth JSON routes (sessions, providers) are the session
 * profile's. In the local profile the gateway knows no such route (404 problem+json, after the usual 401 for a caller
 * without credentials), nothing is written, and the OpenAPI document does not list them; in the session profile they
 * are served and documented with their answers' schemas.
 */
type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>> };

const TEAM_ROUTES = (org: string, ws: string, team: string, user: string): [string, string][] => [
  ["GET", `/api/organizations/${org}/teams`],
  ["POST", `/api/organizations/${org}/teams`],
  ["PUT", `/api/organizations/${org}/teams/${team}`],
  ["DELETE", `/api/organizations/${org}/teams/${team}`],
  ["PUT", `/api/organizations/${org}/teams/${team}/members/${user}`],
  ["DELETE", `/api/organizations/${org}/teams/${team}/members/${user}`],
  ["GET", `/api/workspaces/${ws}/teams`],
  ["PUT", `/api/workspaces/${ws}/teams`],
];

describe("local profile (AUTH_MODE=local): no teams, no /auth JSON routes", () => {
  let h: Harness;
  let owner: TestUser;
  let as: Credentials;
  let orgId: string;
  let wsId: string;
  let teamId: string;

  beforeAll(async () => {
    h = await createHarness();
    owner = await h.user("lola");
    orgId = (await h.org("Local Org", [[owner, "owner"]])).id;
    wsId = (await h.workspace(orgId)).id;
    // A team row left in the database (say, by a deployment that ran the session profile before) stays unreachable.
    const [team] = await h.db.insert(teams).values({ organizationId: orgId, name: "Old" }).returning();
    teamId = team!.id;
    as = await h.session(owner);
  }, 60_000);
  afterAll(() => h.close());

  test("every teams route answers 404 problem+json to the organization's owner, and nothing changes", async () => {
    for (const [method, path] of TEAM_ROUTES(orgId, wsId, teamId, owner.id)) {
      const res = await h.call(method, path, {
        as,
        body: method === "GET" || method === "DELETE" ? undefined : { name: "Core", team_ids: [teamId] },
      });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers.get("content-type"), `${method} ${path}`).toContain("application/problem+json");
    }
    const rows = await h.db.select({ id: teams.id, name: teams.name }).from(teams);
    expect(rows).toEqual([{ id: teamId, name: "Old" }]);
  });

  test("without credentials the same routes answer 401, as every unknown route does", async () => {
    for (const [method, path] of TEAM_ROUTES(orgId, wsId, teamId, owner.id)) {
      expect((await h.call(method, path)).status, `${method} ${path}`).toBe(401);
    }
  });

  test("the session profile's /auth routes are not served", async () => {
    for (const [method, path] of [
      ["GET", "/auth/providers"],
      ["GET", "/auth/sessions"],
      ["DELETE", `/auth/sessions/${crypto.randomUUID()}`],
      ["POST", "/auth/sign-in/username"],
    ] as const) {
      expect((await h.call(method, path, { as })).status, `${method} ${path}`).toBe(404);
    }
  });

  test("the OpenAPI document lists neither teams nor /auth routes", async () => {
    const doc = (await (await h.call("GET", "/api/openapi.json")).json()) as Doc;
    const paths = Object.keys(doc.paths);
    expect(paths.length).toBeGreaterThan(20);
    expect(paths.filter((p) => p.includes("/teams") || p.startsWith("/auth/"))).toEqual([]);
  });
});

describe("session profile (AUTH_MODE=session): teams and the /auth JSON routes are served and documented", () => {
  let h: Harness;
  let owner: TestUser;
  let as: Credentials;
  let orgId: string;
  const ORIGIN = "http://control.test";

  beforeAll(async () => {
    h = await createHarness({ env: { AUTH_MODE: "session" } });
    owner = await h.user("sara");
    orgId = (await h.org("Session Org", [[owner, "owner"]])).id;
    const res = await h.call("POST", "/auth/sign-in/username", {
      body: { username: owner.username, password: owner.password },
      headers: { origin: ORIGIN },
    });
    expect(res.status).toBe(200);
    as = { cookies: { "ams.session_token": cookiesOf(res)["ams.session_token"] ?? "" } };
  }, 60_000);
  afterAll(() => h.close());

  test("teams are served", async () => {
    const created = await h.call("POST", `/api/organizations/${orgId}/teams`, {
      as,
      body: { name: "Core" },
      headers: { origin: ORIGIN },
    });
    expect(created.status).toBe(201);
    const list = await h.call("GET", `/api/organizations/${orgId}/teams`, { as });
    expect(list.status).toBe(200);
  });

  test("the OpenAPI document has the teams and /auth routes, each answer with its schema", async () => {
    const doc = (await (await h.call("GET", "/api/openapi.json")).json()) as Doc;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/api/organizations/{id}/teams", "/api/workspaces/{id}/teams"]),
    );
    expect(doc.paths["/auth/providers"]?.get?.responses["200"]?.content).toMatchObject({
      "application/json": { schema: { $ref: "#/components/schemas/SignInProviders" } },
    });
    expect(doc.paths["/auth/sessions"]?.get?.responses["200"]?.content).toMatchObject({
      "application/json": { schema: { $ref: "#/components/schemas/SessionList" } },
    });
    expect(doc.paths["/auth/sessions/{id}"]?.delete?.responses["204"]).toBeDefined();
    // better-auth's own endpoints are not the product's API.
    expect(Object.keys(doc.paths).filter((p) => p.startsWith("/auth/admin") || p === "/auth/update-user")).toEqual([]);
  });
});
