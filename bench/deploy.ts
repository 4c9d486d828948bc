import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnv, seedAccounts } from "@ams/control";
import { sql, workspaces } from "@ams/db";
import { createTestDatabase } from "@ams/db/testing";
import { generateModel, replaceModel } from "@ams/model";
import { createLogger, createServiceTokens, type ServiceClaims, silentLogger } from "@ams/shared";
import { createServiceMetrics } from "@ams/shared/http";
import { createTenantApp, SERVICE_TOKEN_HEADER } from "@ams/tenant";
import { PGlite } from "@electric-sql/pglite";
import { interleaved, report, section, verdict } from "./lib.ts";
import { withServiceNodeOptions } from "./service-node-options.ts";

const SECRET = "bench-secret-bench-secret-bench-secret!!";
const CONTROL_MAIN = new URL("../services/control/src/main.ts", import.meta.url).pathname;

/**
 * Issue 17: what metrics and access logging cost per request, and how long the standalone shape takes to be ready.
 * - GET /api/elements/:id on the tenant app in this process (no network, so the difference is the instrumentation),
 *   with request id, metrics and one JSON access line per request (written to a sink) beside the same app built with
 *   `observability: false` (none of those middlewares mounted), interleaved round by round.
 * - `node services/control/src/main.ts` on a fresh DATA_DIR (embedded PGlite, migrations, seed): time until
 *   /api/health answers 200, beside PGlite's own start in a fresh directory.
 */
export async function benchDeploy() {
  const database = await createTestDatabase("ams_bench_deploy");
  try {
    const env = parseEnv({ NODE_ENV: "test", DEMO_SEED: "true", TENANT_JWT_SECRET: SECRET });
    await seedAccounts(database, env);
    const [org] = await database.rows<{ id: string }>(sql`select id from organizations where slug = 'archisurance'`);
    const [ws] = await database.db
      .insert(workspaces)
      .values({ organizationId: org!.id, name: "Bench" })
      .returning({ id: workspaces.id, organization_id: workspaces.organizationId });
    await database.db.transaction((tx) =>
      replaceModel(database, tx, ws!.id, generateModel({ elements: 565, views: 5 })),
    );
    const elements = await database.rows<{ id: string }>(sql`select id from elements where workspace_id = ${ws!.id}`);
    const [user] = await database.rows<{ id: string }>(sql`select id from users where username = 'archi'`);
    const tokens = createServiceTokens(SECRET);
    const claims: ServiceClaims = {
      userId: user!.id,
      username: "archi",
      organizationId: ws!.organization_id,
      workspaceId: ws!.id,
      role: "owner",
      platformAdmin: false,
      apiTokenId: null,
    };
    const header = { [SERVICE_TOKEN_HEADER]: await tokens.sign(claims, "tenant") };
    let written = 0;
    const sinkLog = createLogger({
      service: "tenant",
      write: (line) => {
        written += line.length;
      },
    });
    const plain = createTenantApp({ database, tokens, log: silentLogger, observability: false });
    const instrumented = createTenantApp({
      database,
      tokens,
      log: sinkLog,
      metrics: createServiceMetrics("tenant", { processMetrics: false }),
    });
    let i = 0;
    const get = (app: typeof plain) => async () => {
      const id = elements[i++ % elements.length]!.id;
      const res = await app.fetch(new Request(`http://tenant/api/elements/${id}`, { headers: header }));
      if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
      return res.text();
    };
    section(`Metrics and access log: GET /api/elements/:id (${elements.length} elements), in process`);
    const [off, on] = await interleaved([get(plain), get(instrumented)], { iterations: 3000, warmup: 300 });
    const added = on!.median - off!.median;
    report("without request id, metrics and access log, median", off!.median, null, "(the floor)", true);
    report(
      `with request id, metrics and access log, median (+${added.toFixed(3)} ms)`,
      on!.median,
      off!.median,
      "<= 0.1 ms added",
      added <= 0.1,
    );
    if (written === 0) throw new Error("the access log wrote nothing");
    // The floor really is off (no request id answered), the instrumented app really on.
    const answer = (app: typeof plain) =>
      app.fetch(new Request(`http://tenant/api/elements/${elements[0]!.id}`, { headers: header }));
    if ((await answer(plain)).headers.has("x-request-id")) throw new Error("the floor still runs the request id");
    if (!(await answer(instrumented)).headers.has("x-request-id")) throw new Error("no request id when instrumented");
  } finally {
    await database.drop();
  }

  section("Readiness after a cold start: standalone on embedded defaults (PGlite, fresh DATA_DIR)");
  const pgliteDir = mkdtempSync(join(tmpdir(), "ams-bench-pglite-"));
  const pgStarted = performance.now();
  const pg = new PGlite(join(pgliteDir, "pglite"));
  await pg.waitReady;
  const pgliteMs = performance.now() - pgStarted;
  await pg.close();
  rmSync(pgliteDir, { recursive: true, force: true });

  const dataDir = mkdtempSync(join(tmpdir(), "ams-bench-standalone-"));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const started = performance.now();
  const child = spawn(process.execPath, [CONTROL_MAIN], {
    env: withServiceNodeOptions({ ...embeddedEnv(), DATA_DIR: dataDir, PORT: String(port), NEO4J_LOCAL: "false" }),
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    let readyMs: number | undefined;
    while (performance.now() - started < 120_000) {
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`)
        .then((r) => r.status === 200)
        .catch(() => false);
      if (ok) {
        readyMs = performance.now() - started;
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    if (readyMs === undefined) throw new Error("the standalone shape was not ready within 120 s");
    verdict(
      "standalone cold start",
      `standalone cold start: ready (GET /api/health 200) after ${(readyMs / 1000).toFixed(1)} s; PGlite's own start in a fresh directory ${(pgliteMs / 1000).toFixed(1)} s (reported, no target)`,
      true,
    );
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** This process's environment without anything that points at an external PostgreSQL, NATS or Neo4j. */
function embeddedEnv(): Record<string, string | undefined> {
  const env = { ...process.env };
  for (const name of ["DATABASE_URL", "NATS_URL", "NEO4J_URL", "TENANT_URL", "MCP_URL"]) delete env[name];
  return env;
}
