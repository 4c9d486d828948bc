import { type ChildProcess, spawn } from "node:child_process";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { createControlApp, createHttpUpstream, parseEnv, seedAccounts } from "@ams/control";
import { sql } from "@ams/db";
import { createTestDatabase } from "@ams/db/testing";
import { generateModel, replaceModel } from "@ams/model";
import { createServiceTokens, type Logger, type ServiceClaims } from "@ams/shared";
import { createTenantApp, SERVICE_TOKEN_HEADER } from "@ams/tenant";
import { serve } from "@hono/node-server";
import { archiWithWorkspace } from "./demo-user.ts";
import { interleaved, must, report, section } from "./lib.ts";
import { withServiceNodeOptions } from "./service-node-options.ts";

const SECRET = "bench-secret-bench-secret-bench-secret!!";
const TENANT_MAIN = new URL("../services/tenant/src/main.ts", import.meta.url).pathname;

/**
 * Drops every log line: the Logger's methods on a function, because the services of a tree before the structured
 * logger (a ref `pnpm bench:compare` runs this file in) took `log` as a plain function.
 */
const silentLogger: Logger = Object.assign(() => {}, { info() {}, warn() {}, error() {}, child: () => silentLogger });

/**
 * Issue 4: what the gateway adds to GET /api/elements/:id. Each way is measured beside the same request sent straight
 * to the tenant (with a service token signed ahead and renewed while the run lasts), interleaved round by round:
 * - standalone: control and tenant in one process, tenant reached through its fetch function;
 * - split: the tenant as its own process (services/tenant/src/main.ts), control forwarding over HTTP.
 * Through the gateway every request authenticates (access JWT cookie or personal API token looked up by SHA-256),
 * resolves the membership and role, and signs a fresh inter-service token.
 */
export async function benchGateway() {
  const database = await createTestDatabase("ams_bench_gateway");
  const tokens = createServiceTokens(SECRET);
  const env = parseEnv({ NODE_ENV: "test", DEMO_SEED: "true", TENANT_JWT_SECRET: SECRET });
  await seedAccounts(database, env);
  const tenant = createTenantApp({ database, tokens, log: silentLogger });
  const servers: { close(): void }[] = [];
  let child: ChildProcess | undefined;
  const listen = async (fetch: (req: Request) => Response | Promise<Response>) => {
    const server = serve({ fetch, port: 0, hostname: "127.0.0.1" });
    servers.push(server);
    await new Promise((r) => server.once("listening", r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  try {
    // The tenant alone, as the split deployment runs it.
    const tenantPort = 20_000 + Math.floor(Math.random() * 20_000);
    child = spawn(process.execPath, [TENANT_MAIN], {
      env: withServiceNodeOptions({
        ...process.env,
        DATABASE_URL: database.url,
        TENANT_JWT_SECRET: SECRET,
        TENANT_PORT: String(tenantPort),
        NEO4J_LOCAL: "false",
        NATS_URL: "",
      }),
      stdio: ["ignore", "ignore", "inherit"],
    });
    const splitTenant = `http://127.0.0.1:${tenantPort}`;
    const sameProcessTenant = await listen((req) => tenant.fetch(req));
    const control = (upstream: "in-process" | "http") =>
      createControlApp({
        database,
        tokens,
        env,
        upstreams: {
          tenant: upstream === "http" ? createHttpUpstream(splitTenant) : { fetch: async (r) => tenant.fetch(r) },
        },
        log: silentLogger,
      });
    const standalone = await listen(control("in-process").fetch);
    const split = await listen(control("http").fetch);
    // The session profile (AUTH_MODE=session) in the split shape: better-auth's cookie, looked up once per
    // SESSION_CACHE_SECONDS (default 5 s) and then served from control's cache. A tree before it (a ref
    // `pnpm bench:compare` runs this file in) drops the unknown AUTH_MODE: that figure is then left out.
    const sessionEnv = parseEnv({ NODE_ENV: "test", TENANT_JWT_SECRET: SECRET, AUTH_MODE: "session" });
    const splitSession =
      sessionEnv.AUTH_MODE === "session"
        ? await listen(
            createControlApp({
              database,
              tokens,
              env: sessionEnv,
              upstreams: { tenant: createHttpUpstream(splitTenant) },
              log: silentLogger,
            }).fetch,
          )
        : undefined;

    const { cookie, organizationId, workspaceId, token } = await archiWithWorkspace(standalone, {
      pinTokenToWorkspace: true,
    });
    await database.db.transaction((tx) =>
      replaceModel(database, tx, workspaceId, generateModel({ elements: 565, views: 5 })),
    );
    const [count] = await database.rows<{ n: number }>(
      sql`select count(*)::int as n from elements where workspace_id = ${workspaceId}`,
    );
    const { n } = must(count, "the element count");
    const [user] = await database.rows<{ id: string }>(sql`select id from users where username = 'archi'`);
    const claims: ServiceClaims = {
      userId: user!.id,
      username: "archi",
      organizationId,
      workspaceId,
      role: "owner",
      platformAdmin: false,
      apiTokenId: null,
    };
    // Signed ahead and renewed within its 30 s lifetime, so the straight path stays the floor over a long run.
    const direct = { [SERVICE_TOKEN_HEADER]: await tokens.sign(claims, "tenant") };
    const renew = setInterval(async () => {
      direct[SERVICE_TOKEN_HEADER] = await tokens.sign(claims, "tenant");
    }, 10_000);
    servers.push({ close: () => clearInterval(renew) });
    for (let i = 0; i < 100; i++) {
      if ((await fetch(`${splitTenant}/api/health`).catch(() => null))?.ok) break;
      await sleep(100);
    }

    let i = 0;
    const get = (base: string, headers: Record<string, string>) => async () => {
      const res = await fetch(`${base}/api/elements/e-${(i++ * 7919) % n}`, { headers });
      if (res.status !== 200) throw new Error(`${base}: ${res.status} ${await res.text()}`);
      return res.text();
    };
    const bearer = { authorization: `Bearer ${token}` };
    const withCookie = { cookie };

    for (const [shape, gateway, straight] of [
      ["standalone", standalone, sameProcessTenant],
      ["split", split, splitTenant],
    ] as const) {
      section(`Gateway hop, ${shape}: GET /api/elements/:id (${n} elements), through control vs straight to tenant`);
      const [floor, viaCookie, viaToken] = await interleaved(
        [get(straight, direct), get(gateway, withCookie), get(gateway, bearer)],
        { iterations: 2000, warmup: 300 },
      );
      report(`${shape}: straight to tenant, median`, floor!.median, null, "(the floor)", true);
      for (const [how, stats] of [
        ["session cookie", viaCookie!],
        ["API token", viaToken!],
      ] as const) {
        const added = stats.median - floor!.median;
        report(
          `${shape}: through control, ${how}, median (+${added.toFixed(2)} ms)`,
          stats.median,
          floor!.median,
          "<= 1 ms added",
          added <= 1,
        );
      }
    }
    if (!splitSession) {
      console.log("  (this tree has no session profile, AUTH_MODE=session: its figure is left out)");
      return;
    }
    const signIn = await fetch(`${splitSession}/auth/sign-in/username`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: new URL(sessionEnv.PUBLIC_URL).origin },
      body: JSON.stringify({ username: "archi", password: env.SEED_ARCHI_PASSWORD }),
    });
    if (signIn.status !== 200) throw new Error(`session sign-in: ${signIn.status} ${await signIn.text()}`);
    const sessionCookie = signIn.headers
      .getSetCookie()
      .find((l) => l.split("=")[0]!.endsWith("session_token"))!
      .split(";")[0]!;
    section("Gateway hop, split, session profile: GET /api/elements/:id with the session cookie vs straight to tenant");
    const [floor, viaSession] = await interleaved(
      [get(splitTenant, direct), get(splitSession, { cookie: sessionCookie })],
      { iterations: 2000, warmup: 300 },
    );
    const added = viaSession!.median - floor!.median;
    report("split: straight to tenant, median", floor!.median, null, "(the floor)", true);
    report(
      `split: through control, session cookie (AUTH_MODE=session, lookup cached 5 s), median (+${added.toFixed(2)} ms)`,
      viaSession!.median,
      floor!.median,
      "<= 1 ms added",
      added <= 1,
    );
  } finally {
    for (const server of servers) server.close();
    child?.kill();
    await database.drop();
  }
}
