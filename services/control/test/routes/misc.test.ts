import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { createTestDatabase } from "@ams/db/testing";
import { createServiceTokens } from "@ams/shared";
import { createTenantApp } from "@ams/tenant";
import { serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { remoteHealthProbes } from "../../src/gateway/http-upstream.ts";
import { type Credentials, createHarness, type Harness, type TestUser } from "../support/harness.ts";

let h: Harness;
let admin: TestUser;
let member: TestUser;
let adminSession: Credentials;
let memberSession: Credentials;
let org: { id: string };

beforeAll(async () => {
  h = await createHarness({ health: { queue: async () => {} } });
  admin = await h.user("root", { platformAdmin: true });
  member = await h.user("mia");
  org = await h.org("Misc", [[member, "editor"]]);
  [adminSession, memberSession] = await Promise.all([h.session(admin), h.session(member)]);
});
afterAll(() => h.close());

describe("GET /api/auth/me and /api/me", () => {
  test("auth/me is {id, username, name, email, role}", async () => {
    expect(await (await h.call("GET", "/api/auth/me", { as: adminSession })).json()).toEqual({
      id: admin.id,
      username: "root",
      name: "root",
      email: "root@test.example",
      role: "platform_admin",
    });
    expect(await (await h.call("GET", "/api/auth/me", { as: memberSession })).json()).toMatchObject({ role: "user" });
    expect((await h.call("GET", "/api/auth/me")).status).toBe(401);
  });

  test("/api/me has the profile, memberships and active selection", async () => {
    const ws = await h.workspace(org.id);
    const body = await (await h.call("GET", "/api/me", { as: memberSession })).json();
    expect(body).toMatchObject({
      id: member.id,
      username: "mia",
      role: "user",
      must_change_password: false,
      auth_provider: "local",
      memberships: [{ organization_id: org.id, organization_name: "Misc", role: "editor", enabled: true }],
      active_organization_id: org.id,
      active_workspace_id: ws.id,
      api_token: null,
    });
    const admins = await (await h.call("GET", "/api/me", { as: adminSession })).json();
    expect(admins).toMatchObject({ role: "platform_admin", memberships: [], active_organization_id: null });
  });

  test("with an API token, /api/me shows the token's scope only", async () => {
    const other = await h.org("Hidden", [[member, "viewer"]]);
    const token = await (
      await h.call("POST", "/api/settings/api-tokens", { as: memberSession, body: { organization_id: org.id } })
    ).json();
    const body = await (await h.call("GET", "/api/me", { as: { bearer: token.token } })).json();
    expect(body.auth_provider).toBe("api-token");
    expect(body.api_token).toEqual({ id: token.id, organization_id: org.id, workspace_id: null });
    expect(body.memberships.map((m: { organization_id: string }) => m.organization_id)).toEqual([org.id]);
    expect(JSON.stringify(body)).not.toContain(other.id);
  });
});

describe("site messages", () => {
  test("GET is public and starts disabled and empty", async () => {
    const res = await h.call("GET", "/api/settings/messages");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ login: { enabled: false, text: "" }, banner: { enabled: false, text: "" } });
  });

  test("PUT is for Admin only; a message left out is unchanged", async () => {
    const body = { login: { enabled: true, text: "Welcome <b>back</b>" } };
    expect((await h.call("PUT", "/api/settings/messages", { body })).status).toBe(401);
    expect((await h.call("PUT", "/api/settings/messages", { as: memberSession, body })).status).toBe(403);
    expect((await h.call("PUT", "/api/settings/messages", { as: adminSession, body })).status).toBe(200);
    await h.call("PUT", "/api/settings/messages", {
      as: adminSession,
      body: { banner: { enabled: true, text: "Maintenance at 18:00" } },
    });
    expect(await (await h.call("GET", "/api/settings/messages")).json()).toEqual({
      login: { enabled: true, text: "Welcome <b>back</b>" },
      banner: { enabled: true, text: "Maintenance at 18:00" },
    });
    const invalid = await h.call("PUT", "/api/settings/messages", {
      as: adminSession,
      body: { banner: { enabled: "yes", text: 1 } },
    });
    expect(invalid.status).toBe(422);
  });
});

describe("GET /api/health", () => {
  test("is public and reports up / not configured", async () => {
    const res = await h.call("GET", "/api/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: "ok",
      checks: {
        database: "up",
        queue: "up",
        graph: "not configured",
        events: "not started",
        presence: "not configured",
      },
    });
  });

  test("split: queue and graph are the states the tenant service reports", async () => {
    // The tenant as its own HTTP service, its graph down and its queue up; control forwards over HTTP.
    const database = await createTestDatabase("ams_split_health");
    const tenant = createTenantApp({
      database,
      tokens: createServiceTokens(randomUUID() + randomUUID()),
      health: { queue: async () => {}, graph: async () => Promise.reject(new Error("Neo4j refused")) },
    });
    const server = serve({ fetch: tenant.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise((r) => server.once("listening", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const split = await createHarness({ health: remoteHealthProbes(url) });
    try {
      expect(await (await fetch(`${url}/api/health`)).json()).toEqual({
        status: "degraded",
        checks: { database: "up", queue: "up", graph: "down" },
      });
      // Ready all the same: control serves its own job with PostgreSQL alone; the graph is reported, not required.
      const res = await split.call("GET", "/api/health");
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        status: "degraded",
        checks: { database: "up", queue: "up", graph: "down", events: "not started", presence: "not configured" },
      });
      server.close();
      // The tenant unreachable: control cannot vouch for its queue and graph.
      const gone = await split.call("GET", "/api/health");
      expect(await gone.json()).toMatchObject({ checks: { queue: "down", graph: "down" } });
    } finally {
      server.close();
      await split.close();
      await database.drop();
    }
  });

  test("a graph that is down is reported as degraded, and control stays ready (200)", async () => {
    const down = await createHarness({ health: { graph: async () => Promise.reject(new Error("refused")) } });
    try {
      const res = await down.call("GET", "/api/health");
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        status: "degraded",
        checks: {
          database: "up",
          queue: "not configured",
          graph: "down",
          events: "not started",
          presence: "not configured",
        },
      });
    } finally {
      await down.close();
    }
  });
});
