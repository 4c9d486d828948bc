import { randomUUID } from "node:crypto";
import { memberships, organizations, userSelections, workspaces } from "@ams/db";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { createServiceTokens, type ServiceTokens, testLogger } from "@ams/shared";
import { must } from "@ams/shared/testing";
import { createControlApp } from "../../src/app.ts";
import { createLocalUser } from "../../src/auth/create-user.ts";
import type { HealthChecks } from "../../src/context.ts";
import { type ControlEnv, parseEnv } from "../../src/env.ts";
import type { Upstream } from "../../src/gateway/upstream.ts";
import type { Live } from "../../src/live/live.ts";
import { createTestClock, type TestClock } from "./clock.ts";
import { createRecordingUpstream } from "./recording-upstream.ts";

export type TestUser = { id: string; username: string; password: string };
/** How a request proves who it is: a signed-in browser (cookies), a Bearer value, or nothing. */
export type Credentials = { cookies: Record<string, string> } | { bearer: string } | null;

export type HarnessOptions = {
  tenant?: (deps: { database: TestDatabase; tokens: ServiceTokens }) => Upstream;
  mcp?: Upstream | null;
  env?: Record<string, string>;
  health?: HealthChecks;
  /** Live collaboration of this app (a shorter access re-check, NATS); default: the app's own. */
  live?: (database: TestDatabase) => Live;
};

/** A fresh PostgreSQL database (real server), the control app on it, and helpers to arrange data and call it. */
export async function createHarness(opts: HarnessOptions = {}) {
  const database = await createTestDatabase("ams_control");
  const env: ControlEnv = parseEnv({ NODE_ENV: "test", TRUST_PROXY_HOPS: "1", ...opts.env });
  const tokens = createServiceTokens(env.TENANT_JWT_SECRET);
  const clock: TestClock = createTestClock();
  const recorder = createRecordingUpstream(tokens, "tenant");
  const mcp = opts.mcp === null ? undefined : (opts.mcp ?? createRecordingUpstream(tokens, "mcp"));
  const tenant = opts.tenant ? opts.tenant({ database, tokens }) : recorder;
  const app = createControlApp({
    database,
    tokens,
    env,
    clock: clock.now,
    upstreams: { tenant, mcp },
    health: opts.health,
    log: testLogger("control"),
    live: opts.live?.(database),
  });
  const { db } = database;
  let ip = 0;

  const h = {
    database,
    db,
    env,
    tokens,
    clock,
    app,
    recorder,
    mcp,
    async close() {
      await database.drop();
    },
    async user(username: string, extra: { platformAdmin?: boolean; mustChangePassword?: boolean } = {}) {
      const password = `${username}-secret-pw-123`;
      const row = await createLocalUser(db, { username, password, email: `${username}@test.example`, ...extra });
      return { id: row.id, username: row.username, password } satisfies TestUser;
    },
    async org(name: string, members: [TestUser, string][] = [], enabled = true) {
      const [inserted] = await db
        .insert(organizations)
        .values({
          name,
          slug: `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${randomUUID().slice(0, 8)}`,
          enabled,
        })
        .returning();
      const org = must(inserted, `the organization ${name}`);
      for (const [user, role] of members) {
        await db.insert(memberships).values({ organizationId: org.id, userId: user.id, role });
      }
      return org;
    },
    async workspace(organizationId: string, name = "Model") {
      const [ws] = await db.insert(workspaces).values({ organizationId, name }).returning();
      return must(ws, `the workspace ${name}`);
    },
    async select(userId: string, organizationId: string | null, workspaceId: string | null) {
      await db
        .insert(userSelections)
        .values({ userId, organizationId, workspaceId })
        .onConflictDoUpdate({ target: userSelections.userId, set: { organizationId, workspaceId } });
    },
    /** Signs in through POST /api/auth/local/login; each call comes from a new client address unless given. */
    async login(user: TestUser, opts: { password?: string; ip?: string } = {}) {
      const res = await h.call("POST", "/api/auth/local/login", {
        body: { username: user.username, password: opts.password ?? user.password },
        headers: { "x-forwarded-for": opts.ip ?? `10.0.${Math.floor(++ip / 250)}.${ip % 250}` },
      });
      return { res, cookies: cookiesOf(res) };
    },
    async session(user: TestUser): Promise<Credentials> {
      const { res, cookies } = await h.login(user);
      if (res.status !== 200) throw new Error(`login of ${user.username} failed: ${res.status}`);
      return { cookies };
    },
    async call(
      method: string,
      path: string,
      opts: { as?: Credentials; body?: unknown; headers?: Record<string, string>; raw?: BodyInit } = {},
    ): Promise<Response> {
      const headers = new Headers(opts.headers);
      const as = opts.as ?? null;
      if (as && "cookies" in as) {
        // A browser's write names its page's origin (the CSRF check refuses cookie writes without a trusted one).
        if (!headers.has("origin")) headers.set("origin", "http://control.test");
        headers.set(
          "cookie",
          Object.entries(as.cookies)
            .map(([k, v]) => `${k}=${v}`)
            .join("; "),
        );
      }
      if (as && "bearer" in as) headers.set("authorization", `Bearer ${as.bearer}`);
      let body: BodyInit | undefined = opts.raw;
      if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        if (!headers.has("content-type")) headers.set("content-type", "application/json");
      }
      return app.request(`http://control.test${path}`, { method, headers, body });
    },
  };
  return h;
}

export type Harness = Awaited<ReturnType<typeof createHarness>>;

/** name -> value of every Set-Cookie that sets a value (cleared cookies map to ""). */
export function cookiesOf(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of res.headers.getSetCookie()) {
    const pair = must(line.split(";")[0], "the name=value of a Set-Cookie line");
    const eq = pair.indexOf("=");
    out[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return out;
}

/** The value of cookie `name` in a jar (from cookiesOf or a browser), or a failure naming the missing cookie. */
export function cookie(jar: Record<string, string>, name: string): string {
  return must(jar[name], `the ${name} cookie`);
}

/** The full Set-Cookie line for `name`. */
export function setCookieLine(res: Response, name: string): string | undefined {
  return res.headers.getSetCookie().find((l) => l.startsWith(`${name}=`));
}
