import { compileQuery, type Database, memberships, openDatabase, organizations, users, workspaces } from "@ams/db";
import { createServiceTokens, silentLogger } from "@ams/shared";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createControlApp } from "../src/app.ts";
import { parseEnv } from "../src/env.ts";
import { seedAccounts } from "../src/seed/index.ts";
import { cookiesOf } from "./support/harness.ts";
import { createRecordingUpstream } from "./support/recording-upstream.ts";
import { firstRow } from "./support/rows.ts";

/** The standalone shape runs on embedded PGlite: the same code paths must work there (raw SQL, locks, seed). */
let database: Database;
beforeAll(async () => {
  database = await openDatabase({ dataDir: "memory://" });
});
afterAll(() => database.close());

test("seed, sign-in, refresh, API token and gateway resolution on PGlite", async () => {
  const env = parseEnv({ DEMO_SEED: "true" });
  await seedAccounts(database, env);
  const tokens = createServiceTokens(env.TENANT_JWT_SECRET);
  const tenant = createRecordingUpstream(tokens, "tenant");
  const app = createControlApp({ database, tokens, env, upstreams: { tenant }, log: silentLogger });
  const call = (method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) =>
    app.request(`http://local${path}`, {
      method,
      headers: { "content-type": "application/json", ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });

  const login = await call("POST", "/api/auth/local/login", {
    body: { username: "archi", password: env.SEED_ARCHI_PASSWORD },
  });
  expect(login.status).toBe(200);
  const cookies = cookiesOf(login);
  const cookie = `access_token=${cookies.access_token}`;
  const refreshed = await call("POST", "/api/auth/refresh", {
    headers: { cookie: `refresh_token=${cookies.refresh_token}`, origin: "http://local" },
  });
  expect(refreshed.status).toBe(204);

  const org = await firstRow(database.db.select().from(organizations), "the seeded organization");
  const ws = await firstRow(
    database.db.insert(workspaces).values({ organizationId: org.id, name: "W" }).returning(),
    "the new workspace",
  );
  expect((await call("GET", "/api/elements", { headers: { cookie } })).status).toBe(200);
  const member = await database.db.select().from(memberships);
  expect(member.length).toBeGreaterThan(0);

  const created = await call("POST", "/api/settings/api-tokens", {
    headers: { cookie, origin: "http://local" },
    body: { organization_id: org.id, workspace_id: ws.id },
  });
  expect(created.status).toBe(201);
  const { token } = await created.json();
  expect((await call("GET", "/api/elements", { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  expect(tenant.last().claims).toMatchObject({ organizationId: org.id, workspaceId: ws.id });

  const health = await call("GET", "/api/health");
  expect(await health.json()).toMatchObject({ checks: { database: "up" } });
});

test("on PGlite the access counters are remembered: no statement per request for them, and a demotion, a removal or a suspension committed counts from the next request", async () => {
  const env = parseEnv({ DEMO_SEED: "true" });
  await seedAccounts(database, env);
  const tokens = createServiceTokens(env.TENANT_JWT_SECRET);
  const tenant = createRecordingUpstream(tokens, "tenant");
  // The same database, its statements counted (the remembered counters live beside this handle).
  const sent: string[] = [];
  const counted: Database = {
    ...database,
    rows: (query, on) => {
      sent.push(compileQuery(query).sql);
      return database.rows(query, on);
    },
  };
  const app = createControlApp({ database: counted, tokens, env, upstreams: { tenant }, log: silentLogger });
  const login = await app.request("http://local/api/auth/local/login", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "archi", password: env.SEED_ARCHI_PASSWORD }),
  });
  expect(login.status).toBe(200);
  const cookie = `access_token=${cookiesOf(login).access_token}`;
  const write = async () =>
    (
      await app.request("http://local/api/elements", {
        method: "POST",
        headers: { cookie, origin: "http://local", "content-type": "application/json" },
        body: JSON.stringify({ type: "BusinessActor", name: "Writer" }),
      })
    ).status;
  const archi = await firstRow(database.db.select().from(users).where(eq(users.username, "archi")), "archi");
  const org = await firstRow(database.db.select().from(organizations), "the seeded organization");
  const membership = and(eq(memberships.userId, archi.id), eq(memberships.organizationId, org.id));

  expect(await write()).toBe(200);
  expect(await write()).toBe(200);
  sent.length = 0;
  expect(await write()).toBe(200);
  expect(sent.filter((text) => text.includes("access_versions"))).toEqual([]);

  await database.db.update(memberships).set({ role: "viewer" }).where(membership);
  expect(await write()).toBe(403);
  await database.db.update(memberships).set({ role: "owner" }).where(membership);
  expect(await write()).toBe(200);
  await database.db.update(organizations).set({ enabled: false }).where(eq(organizations.id, org.id));
  expect(await write()).not.toBe(200);
  await database.db.update(organizations).set({ enabled: true }).where(eq(organizations.id, org.id));
  expect(await write()).toBe(200);
  const [removed] = await database.db.delete(memberships).where(membership).returning();
  expect(await write()).not.toBe(200);
  await database.db.insert(memberships).values(removed!);
  expect(await write()).toBe(200);
});
