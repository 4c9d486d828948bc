import { spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createServiceTokens, serviceKeysFromEnv } from "@ams/shared";
import { runtimeSettings } from "@ams/shared/http";
import { must } from "@ams/shared/testing";
import { describe, expect, test } from "vitest";
import { parseGraphEnv } from "../../packages/graph/src/env.ts";
import { parseEnv as parseControlEnv } from "../../services/control/src/env.ts";
import { parseEnv as parseMcpEnv } from "../../services/mcp/src/env.ts";
import { readEnv, TenantEnv } from "../../services/tenant/src/env.ts";
import { kubernetesProblems } from "./k8s-validate.ts";
import { byKind, chartDir, examplesDir, helm, type K8sObject, minimalSets, named, render, setArgs } from "./render.ts";

// The chart as an operator installs it: a real Helm binary renders it (helm template, test hooks included).
const minimal = render({ args: setArgs(minimalSets) });
const large = render({ release: "big", valuesFiles: [join(examplesDir, "large.yaml")] });
const small = render({
  valuesFiles: [join(examplesDir, "small.yaml")],
  args: setArgs({ "secrets.databaseUrl": "postgres://a:b@db:5432/x", "secrets.neo4jPassword": "pw" }),
});

const claims = {
  userId: "u1",
  username: "ann",
  organizationId: "o1",
  workspaceId: "w1",
  role: "editor" as const,
  platformAdmin: false,
  apiTokenId: null,
  pinnedWorkspaceId: null,
};

type Container = {
  name: string;
  env?: EnvVar[];
  envFrom?: unknown[];
  securityContext?: Record<string, unknown>;
  lifecycle?: { preStop: { exec: { command: string[] } } };
};
type EnvVar = { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } };

function podSpecs(objects: K8sObject[]) {
  return objects.flatMap((o) => {
    if (o.kind === "Deployment" || o.kind === "Job")
      return [{ owner: `${o.kind} ${o.metadata.name}`, spec: o.spec.template.spec }];
    if (o.kind === "Pod") return [{ owner: `Pod ${o.metadata.name}`, spec: o.spec }];
    return [];
  });
}

const container = (deployment: K8sObject): Container => deployment.spec.template.spec.containers[0];
const secretKeys = (c: Container) =>
  (c.env ?? []).flatMap((e) => (e.valueFrom?.secretKeyRef ? [e.valueFrom.secretKeyRef.key] : [])).sort();

/** The environment a container gets, with Secret references resolved from the rendered Secret. */
function resolvedEnv(objects: K8sObject[], c: Container): Record<string, string> {
  const secret = byKind(objects, "Secret")[0]?.stringData ?? {};
  const env: Record<string, string> = {};
  for (const e of c.env ?? []) {
    const ref = e.valueFrom?.secretKeyRef;
    if (ref) {
      if (secret[ref.key] !== undefined) env[e.name] = String(secret[ref.key]);
    } else env[e.name] = e.value ?? "";
  }
  return env;
}

/**
 * Runs a helm test Pod's command here (node is the same as in the control image) with the Pod's env: literal values
 * as rendered, Secret references resolved from the rendered Secret; `overrides` replaces addresses.
 */
async function runTestPod(objects: K8sObject[], pod: K8sObject, overrides: Record<string, string>) {
  const c = pod.spec.containers[0] as Container & { command: string[] };
  const env = { PATH: process.env.PATH ?? "", ...resolvedEnv(objects, c), ...overrides };
  const child = spawn(process.execPath, c.command.slice(1), { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const code = await new Promise<number | null>((r) => child.once("exit", r));
  return { code, stdout, stderr };
}

describe.each([
  ["only a host name and secrets", minimal],
  ["helm/examples/small.yaml", small],
  ["helm/examples/large.yaml", large],
])("the chart rendered with %s", (_label, objects) => {
  test("every object is valid against the Kubernetes OpenAPI schema of its kind", async () => {
    expect(objects.length).toBeGreaterThan(8);
    const problems = (await Promise.all(objects.map(kubernetesProblems))).flat();
    expect(problems).toEqual([]);
  });

  test("every selector names the release instance, so two releases never select each other's pods", () => {
    const selectors: [string, Record<string, string> | undefined][] = [];
    for (const o of objects) {
      const id = `${o.kind} ${o.metadata.name}`;
      if (["Deployment", "PodDisruptionBudget"].includes(o.kind)) selectors.push([id, o.spec.selector.matchLabels]);
      if (o.kind === "Service") selectors.push([id, o.spec.selector]);
      if (o.kind === "ServiceMonitor") selectors.push([id, o.spec.selector.matchLabels]);
      if (o.kind === "NetworkPolicy") {
        selectors.push([id, o.spec.podSelector.matchLabels]);
        for (const rule of o.spec.ingress ?? []) {
          for (const peer of rule.from ?? [])
            if (!peer.namespaceSelector) selectors.push([`${id} from`, peer.podSelector.matchLabels]);
        }
      }
      for (const { owner, spec } of podSpecs([o])) {
        for (const t of spec.topologySpreadConstraints ?? [])
          selectors.push([`${owner} spread`, t.labelSelector.matchLabels]);
      }
    }
    expect(selectors.length).toBeGreaterThan(4);
    for (const [id, labels] of selectors) {
      expect({ id, instance: labels?.["app.kubernetes.io/instance"] }).toEqual({
        id,
        instance: objects === large ? "big" : "site",
      });
    }
  });

  test("each Deployment gets only the secrets its service reads, never the whole Secret", () => {
    const keys = (name: string) => secretKeys(container(named(objects, "Deployment", name)));
    const prefix = objects === large ? "big" : "site";
    expect(keys(`${prefix}-control`)).toEqual(
      ["AUTH_JWT_SECRET", "DATABASE_URL", "SEED_ADMIN_PASSWORD", "SMTP_URL", "TENANT_JWT_PRIVATE_KEY"].sort(),
    );
    // Tenant and mcp get only the public half of the token key: they can verify control's tokens, not mint them.
    expect(keys(`${prefix}-tenant`)).toEqual([
      "DATABASE_URL",
      "NEO4J_PASSWORD",
      "TENANT_JWT_PUBLIC_KEY",
      "TENANT_JWT_PUBLIC_KEY_PREVIOUS",
    ]);
    // mcp's graph tools read Neo4j too.
    expect(keys(`${prefix}-mcp`)).toEqual([
      "DATABASE_URL",
      "NEO4J_PASSWORD",
      "TENANT_JWT_PUBLIC_KEY",
      "TENANT_JWT_PUBLIC_KEY_PREVIOUS",
    ]);
    expect(keys(`${prefix}-graph-worker`)).toEqual(["DATABASE_URL", "NEO4J_PASSWORD"]);
    const job = named(objects, "Job", `${prefix}-migrate`).spec.template.spec.containers[0];
    expect(secretKeys(job)).toEqual([objects === large ? "DATABASE_MIGRATION_URL" : "DATABASE_URL"]);
    for (const { spec } of podSpecs(objects)) for (const c of spec.containers) expect(c.envFrom).toBeUndefined();
  });

  test("every pod runs under the restricted Pod Security profile without a service-account token", () => {
    const pods = podSpecs(objects);
    expect(pods.length).toBe(7); // four Deployments, the migration Job, two helm test Pods
    for (const { owner, spec } of pods) {
      expect({ owner, automount: spec.automountServiceAccountToken }).toEqual({ owner, automount: false });
      expect(spec.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } });
      for (const c of spec.containers) {
        expect({ owner, sc: c.securityContext }).toEqual({
          owner,
          sc: expect.objectContaining({
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: true,
            runAsNonRoot: true,
            capabilities: { drop: ["ALL"] },
            seccompProfile: { type: "RuntimeDefault" },
          }),
        });
      }
    }
    const accounts = byKind(objects, "ServiceAccount");
    expect(accounts.map((a) => a.automountServiceAccountToken)).toEqual([false]);
  });

  test("the Deployments roll when the Secret changes, exit on their own before SIGKILL, and expose metrics", () => {
    for (const d of byKind(objects, "Deployment")) {
      expect(d.spec.template.metadata.annotations["checksum/secret"]).toMatch(/^[0-9a-f]{64}$/);
      const c = container(d);
      expect(c.lifecycle?.preStop.exec.command).toEqual(["sleep", "5"]);
      expect(stopTimeline(d)).toEqual({ preStopMs: 5_000, drainMs: 25_000, closeMs: 10_000, graceMs: 45_000 });
      expectExitBeforeKill(d);
      expect(d.spec.template.spec.containers[0].startupProbe.httpGet.path).toBe("/api/health");
    }
    // Every service, the graph-worker included, has a Service port named "metrics" for Prometheus.
    for (const s of byKind(objects, "Service")) {
      expect(s.spec.ports.map((p: { name: string }) => p.name)).toContain("metrics");
    }
    expect(byKind(objects, "Service")).toHaveLength(4);
  });
});

/** The stop of a Deployment's pod as rendered: preStop pause, then SIGTERM, the drain bound and the close bound. */
function stopTimeline(d: K8sObject) {
  const c = container(d);
  const env = (name: string) => Number(c.env?.find((e) => e.name === name)?.value);
  return {
    preStopMs: Number(c.lifecycle?.preStop.exec.command[1]) * 1000,
    drainMs: env("SHUTDOWN_DRAIN_MS"),
    closeMs: env("SHUTDOWN_CLOSE_MS"),
    graceMs: d.spec.template.spec.terminationGracePeriodSeconds * 1000,
  };
}

/**
 * Kubernetes counts the grace period from the start of the preStop hook and sends SIGTERM when the hook ends; the
 * process (packages/shared/src/http/serve.ts) exits by itself at the latest drainMs + closeMs after SIGTERM. That
 * must come before SIGKILL, with at least a second to spare.
 */
function expectExitBeforeKill(d: K8sObject) {
  const t = stopTimeline(d);
  expect(Object.values(t).every((v) => Number.isFinite(v) && v > 0)).toBe(true);
  expect(t.preStopMs + t.drainMs + t.closeMs + 1000, `${d.metadata.name} exits before SIGKILL`).toBeLessThanOrEqual(
    t.graceMs,
  );
}

describe("installing with only a host name and secrets", () => {
  test("derives PUBLIC_URL from the host, trusts the ingress hop and seeds no demo accounts", () => {
    const env = resolvedEnv(minimal, container(named(minimal, "Deployment", "site-control")));
    expect(env).toMatchObject({
      PUBLIC_URL: "http://archimate.example.com",
      TRUST_PROXY_HOPS: "1",
      DEMO_SEED: "false",
      TENANT_URL: "http://site-tenant:8081",
      MCP_URL: "http://site-mcp:8082",
      MIGRATE_ON_START: "false",
    });
    expect(resolvedEnv(small, container(named(small, "Deployment", "site-control"))).PUBLIC_URL).toBe(
      "https://archimate.example.com",
    );
  });

  test("each service accepts the environment the chart gives it (production checks included)", () => {
    const env = (name: string) => resolvedEnv(minimal, container(named(minimal, "Deployment", `site-${name}`)));
    const control = parseControlEnv(env("control"));
    expect(control.SEED_ADMIN_PASSWORD).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(readEnv(TenantEnv, env("tenant")).UPLOAD_LIMIT_MB).toBe(50);
    expect(parseMcpEnv(env("mcp")).MCP_BODY_LIMIT).toBe(50 * 1024 * 1024);
    expect(parseGraphEnv(env("graph-worker"))).toMatchObject({ NATS_URL: "nats://nats:4222" });
    for (const name of ["control", "tenant", "mcp", "graph-worker"]) {
      expect(runtimeSettings(env(name))).toMatchObject({ DB_POOL_MAX: 10, SHUTDOWN_DRAIN_MS: 25_000 });
    }
  });

  test("every service runs with the chart's nodeOptions as NODE_OPTIONS (by default 8 MB semi-spaces)", () => {
    const options = (objects: K8sObject[]) =>
      byKind(objects, "Deployment").map((d) => resolvedEnv(objects, container(d)).NODE_OPTIONS);
    expect(options(minimal)).toEqual(Array(4).fill("--max-semi-space-size=8"));
    const own = render({ args: setArgs({ ...minimalSets, nodeOptions: "--max-semi-space-size=32" }) });
    expect(options(own)).toEqual(Array(4).fill("--max-semi-space-size=32"));
  });

  test("each service's database pool is sized by its own value", () => {
    const objects = render({ args: setArgs({ ...minimalSets, "tenant.dbPoolMax": 25, "graphWorker.dbPoolMax": 4 }) });
    const pool = (name: string) =>
      runtimeSettings(resolvedEnv(objects, container(named(objects, "Deployment", `site-${name}`)))).DB_POOL_MAX;
    expect([pool("control"), pool("tenant"), pool("mcp"), pool("graph-worker")]).toEqual([10, 25, 10, 4]);
  });

  test("the session profile (authMode=session): control gets its cookie secret and the seed passwords it needs", () => {
    const objects = render({
      args: setArgs({
        ...minimalSets,
        authMode: "session",
        "secrets.seedPasswords.user": "user-real-password",
        "secrets.seedPasswords.contrib": "contrib-real-password",
        "secrets.seedPasswords.archi": "archi-real-password",
      }),
    });
    const c = container(named(objects, "Deployment", "site-control"));
    expect(secretKeys(c)).toEqual(
      expect.arrayContaining(["SESSION_SECRET", "SEED_USER_PASSWORD", "SEED_CONTRIB_PASSWORD", "SEED_ARCHI_PASSWORD"]),
    );
    expect(parseControlEnv(resolvedEnv(objects, c))).toMatchObject({ AUTH_MODE: "session" });
  });

  test("control signs inter-service tokens that tenant and mcp verify, and neither of them can sign", async () => {
    const env = (name: string) => resolvedEnv(minimal, container(named(minimal, "Deployment", `site-${name}`)));
    const signer = createServiceTokens(serviceKeysFromEnv(env("control"), "signer"));
    const token = await signer.sign(claims, "tenant");
    for (const name of ["tenant", "mcp"]) {
      const verifier = createServiceTokens(serviceKeysFromEnv(env(name), "verifier"));
      expect(await verifier.verify(token, "tenant")).toEqual(claims);
      await expect(verifier.sign(claims, "tenant")).rejects.toThrow(/no key to sign/);
      expect(env(name).TENANT_JWT_SECRET).toBeUndefined();
    }
  });

  test("key rotation: with the previous public key given, tokens of the old and the new key are both accepted", async () => {
    const pair = () => {
      const { privateKey, publicKey } = generateKeyPairSync("ed25519");
      return {
        privatePem: privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
        publicPem: publicKey.export({ format: "pem", type: "spki" }).toString(),
      };
    };
    const [old, next] = [pair(), pair()];
    const rotating = render({
      args: [
        ...setArgs(minimalSets),
        ...setArgs({
          "secrets.serviceTokenPrivateKey": next.privatePem,
          "secrets.serviceTokenPublicKey": next.publicPem,
          "secrets.serviceTokenPreviousPublicKey": old.publicPem,
        }),
      ],
    });
    const tenant = createServiceTokens(
      serviceKeysFromEnv(resolvedEnv(rotating, container(named(rotating, "Deployment", "site-tenant"))), "verifier"),
    );
    for (const { privatePem } of [old, next]) {
      const signer = createServiceTokens(serviceKeysFromEnv({ TENANT_JWT_PRIVATE_KEY: privatePem }, "signer"));
      expect(await tenant.verify(await signer.sign(claims, "tenant"), "tenant")).toEqual(claims);
    }
    const stranger = createServiceTokens(serviceKeysFromEnv({ TENANT_JWT_PRIVATE_KEY: pair().privatePem }, "signer"));
    await expect(tenant.verify(await stranger.sign(claims, "tenant"), "tenant")).rejects.toThrow();
  });

  test("the ingress lets an upload of UPLOAD_LIMIT_MB through nginx and leaves TLS out when not asked for", () => {
    const ingress = must(byKind(minimal, "Ingress")[0], "the Ingress");
    expect(ingress.metadata.annotations?.["nginx.ingress.kubernetes.io/proxy-body-size"]).toBe("51m");
    expect(ingress.spec.tls).toBeUndefined();
    expect(ingress.spec.ingressClassName).toBe("nginx");
    const big = must(byKind(large, "Ingress")[0], "the Ingress of the large example");
    expect(big.metadata.annotations?.["nginx.ingress.kubernetes.io/proxy-body-size"]).toBe("201m");
    expect(big.spec.tls).toEqual([{ hosts: ["architecture.example.com"], secretName: "architecture-example-com-tls" }]);
    expect(resolvedEnv(large, container(named(large, "Deployment", "big-tenant"))).UPLOAD_LIMIT_MB).toBe("200");
  });

  test("the migration Job runs before install and upgrade; helm test calls health and signs in", () => {
    const job = named(minimal, "Job", "site-migrate");
    expect(job.metadata.annotations?.["helm.sh/hook"]).toBe("pre-install,pre-upgrade");
    expect(job.spec.template.spec.containers[0].command).toEqual(["node", "packages/db/src/migrate-cli.ts"]);
    // The Secret is a hook too, created before the Job that reads it.
    const secret = must(byKind(minimal, "Secret")[0], "the Secret");
    expect(Number(secret.metadata.annotations?.["helm.sh/hook-weight"])).toBeLessThan(
      Number(job.metadata.annotations?.["helm.sh/hook-weight"]),
    );
    const tests = byKind(minimal, "Pod").filter((p) => p.metadata.annotations?.["helm.sh/hook"] === "test");
    const scripts = tests.map((p) => p.spec.containers[0].command.join(" "));
    expect(scripts.some((s) => s.includes("/api/health"))).toBe(true);
    expect(scripts.some((s) => s.includes("/api/auth/local/login"))).toBe(true);
  });

  test.each([
    ["local", {}, "/api/auth/local/login", "access_token"],
    [
      "session",
      {
        authMode: "session",
        "secrets.seedPasswords.user": "user-real-password",
        "secrets.seedPasswords.contrib": "contrib-real-password",
        "secrets.seedPasswords.archi": "archi-real-password",
      },
      "/auth/sign-in/username",
      "ams.session_token",
    ],
  ])("helm test signs in with the endpoint of the %s profile", async (mode, sets, path, cookie) => {
    const objects = render({
      args: setArgs({ ...minimalSets, ...sets, "secrets.adminPassword": "the-admin-password" }),
    });
    const pod = named(objects, "Pod", "site-test-sign-in");
    const received: { method: string; path: string; origin?: string; body: unknown }[] = [];
    // Control as far as the hook sees it: the route the profile registers answers 200 with its session cookie.
    const server = createServer((req, res) => {
      let text = "";
      req.on("data", (chunk) => {
        text += chunk;
      });
      req.on("end", () => {
        received.push({
          method: req.method ?? "",
          path: req.url ?? "",
          origin: req.headers.origin,
          body: JSON.parse(text),
        });
        if (req.method === "POST" && req.url === path) {
          res.writeHead(200, { "content-type": "application/json", "set-cookie": `${cookie}=x; Path=/; HttpOnly` });
          res.end("{}");
        } else {
          res.writeHead(404).end();
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const { port } = server.address() as AddressInfo;
      const run = (controlUrl: string) => runTestPod(objects, pod, { CONTROL_URL: controlUrl });
      const ok = await run(`http://127.0.0.1:${port}`);
      expect(ok.stdout + ok.stderr).toContain(`sign-in as admin (${mode} profile): 200`);
      expect(ok.code).toBe(0);
      expect(received).toEqual([
        {
          method: "POST",
          path,
          origin: "http://archimate.example.com",
          body: { username: "admin", password: "the-admin-password" },
        },
      ]);
      // A control without that route (the other profile's) fails the hook.
      const wrong = await run(`http://127.0.0.1:${port}/elsewhere`);
      expect(wrong.code).toBe(1);
    } finally {
      server.close();
    }
  });

  test("longer stop bounds lengthen the grace period with them", () => {
    const objects = render({
      args: setArgs({ ...minimalSets, preStopSeconds: 15, drainSeconds: 300, closeSeconds: 30 }),
    });
    for (const d of byKind(objects, "Deployment")) {
      expect(stopTimeline(d)).toEqual({ preStopMs: 15_000, drainMs: 300_000, closeMs: 30_000, graceMs: 350_000 });
      expectExitBeforeKill(d);
    }
  });

  test("NOTES tell the operator where and how to sign in: the URL from the ingress host, the admin's password", () => {
    const notes = (args: string[]) => {
      const result = helm(["install", "site", chartDir, "--dry-run=client", "--namespace", "archimate", ...args]);
      expect(result.status, result.stderr).toBe(0);
      const text = result.stdout.split("\nNOTES:\n")[1];
      expect(text).toBeDefined();
      return text as string;
    };
    const plain = notes(setArgs(minimalSets));
    expect(plain).toContain('Sign in at http://archimate.example.com/login as the platform admin, user name "admin"');
    expect(plain).toContain(
      "kubectl -n archimate get secret site-secrets -o jsonpath='{.data.SEED_ADMIN_PASSWORD}' | base64 -d",
    );
    expect(plain).toContain("helm test site -n archimate");

    const tls = notes(["-f", join(examplesDir, "small.yaml"), ...setArgs(minimalSets)]);
    expect(tls).toContain("Sign in at https://archimate.example.com/login");

    const own = notes([
      ...setArgs({ "ingress.host": "models.example.org", authMode: "session", "secrets.existingSecret": "mine" }),
    ]);
    expect(own).toContain(
      'Sign in at http://models.example.org/login as the platform admin, user name "admin" (session profile)',
    );
    expect(own).toContain("get secret mine -o jsonpath='{.data.SEED_ADMIN_PASSWORD}'");
    expect(own).toContain("POST /auth/sign-in/username");
  });

  test("a changed secret value changes the pods' checksum (they roll); an unchanged one does not", () => {
    const checksum = (objects: K8sObject[]) =>
      named(objects, "Deployment", "site-tenant").spec.template.metadata.annotations["checksum/secret"];
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    const fixed = {
      ...minimalSets,
      "secrets.serviceTokenPrivateKey": privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
      "secrets.serviceTokenPublicKey": publicKey.export({ format: "pem", type: "spki" }).toString(),
      "secrets.authJwtSecret": "j".repeat(40),
      "secrets.adminPassword": "an-admin-password",
    };
    const before = checksum(render({ args: setArgs(fixed) }));
    expect(checksum(render({ args: setArgs(fixed) }))).toBe(before);
    expect(checksum(render({ args: setArgs({ ...fixed, "secrets.neo4jPassword": "rotated" }) }))).not.toBe(before);
  });
});

describe("values that produce no working site are refused at install", () => {
  const refusal = (sets: Record<string, string | boolean>) => {
    const result = helm(["template", "site", join(examplesDir, "..", "archimate"), ...setArgs(sets)]);
    expect(result.status).not.toBe(0);
    return result.stderr;
  };

  test("the values schema names the wrong value", () => {
    expect(refusal({ ...minimalSets, "image.pullPolicy": "Sometimes" })).toMatch(/pullPolicy/);
    expect(refusal({ ...minimalSets, "control.replicas": "two" })).toMatch(/replicas/);
    expect(refusal({ ...minimalSets, "secrets.adminPassword": "short" })).toMatch(/adminPassword/);
    expect(refusal({ ...minimalSets, "contol.replicas": "2" })).toMatch(/contol/);
    expect(refusal({ ...minimalSets, "tenant.dbPoolMax": true })).toMatch(/dbPoolMax/);
    expect(helm(["template", "site", chartDir, ...setArgs(minimalSets), "--set", "tenant.dbPoolMax=0"]).stderr).toMatch(
      /dbPoolMax/,
    );
    expect(refusal({ ...minimalSets, "ingress.host": "https://archimate.example.com/" })).toMatch(/host/);
  });

  test("missing host or database URL is named", () => {
    expect(refusal({})).toMatch(/ingress\.host|secrets\.databaseUrl/);
    expect(refusal({ "ingress.host": "a.example.com" })).toMatch(/secrets\.databaseUrl is required/);
    expect(refusal({ ...minimalSets, demoSeed: true })).toMatch(/SEED_\w+_PASSWORD is required with demoSeed/);
  });

  test("helm lint accepts the chart", () => {
    const result = helm(["lint", join(examplesDir, "..", "archimate"), "--strict", ...setArgs(minimalSets)]);
    expect(result.stdout + result.stderr).toMatch(/1 chart\(s\) linted, 0 chart\(s\) failed/);
  });
});
