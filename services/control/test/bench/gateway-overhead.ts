/**
 * Gateway hop cost: GET /api/elements/:id through control vs straight to tenant, same run, same database.
 * Standalone (tenant in-process via app.fetch) and split (both over HTTP on loopback).
 * Run: ./pnpm exec node services/control/test/bench/gateway-overhead.ts [iterations]
 */
import type { AddressInfo } from "node:net";
import { memberships, organizations, userSelections, workspaces } from "@ams/db";
import { createTestDatabase } from "@ams/db/testing";
import { createServiceTokens } from "@ams/shared";
import { SERVICE_TOKEN_HEADER } from "@ams/shared/http";
import { createTenantApp } from "@ams/tenant";
import { serve } from "@hono/node-server";
import { createControlApp } from "../../src/app.ts";
import { createLocalUser } from "../../src/auth/create-user.ts";
import { parseEnv } from "../../src/env.ts";
import { createHttpUpstream } from "../../src/gateway/http-upstream.ts";

const iterations = Number(process.argv[2] ?? 3000);
const database = await createTestDatabase("ams_bench");
try {
  const env = parseEnv({ NODE_ENV: "test" });
  const tokens = createServiceTokens(env.TENANT_JWT_SECRET);
  const tenant = createTenantApp({ database, tokens });
  const user = await createLocalUser(database.db, { username: "bench", password: "bench-password-1", email: "b@x.io" });
  const [org] = await database.db.insert(organizations).values({ name: "Bench", slug: "bench" }).returning();
  await database.db.insert(memberships).values({ organizationId: org.id, userId: user.id, role: "editor" });
  const [ws] = await database.db.insert(workspaces).values({ organizationId: org.id, name: "W" }).returning();
  await database.db.insert(userSelections).values({ userId: user.id, organizationId: org.id, workspaceId: ws.id });

  const standalone = createControlApp({ database, tokens, env, upstreams: { tenant: { fetch: tenant.fetch } } });
  const login = await standalone.request("http://c/api/auth/local/login", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "bench", password: "bench-password-1" }),
  });
  const cookie = login.headers
    .getSetCookie()
    .find((l) => l.startsWith("access_token="))!
    .split(";")[0];
  const created = await standalone.request("http://c/api/elements", {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify({ name: "CRM", type: "Application Component" }),
  });
  const elementId = ((await created.json()) as { id: string }).id;
  const tokenRes = await standalone.request("http://c/api/settings/api-tokens", {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify({ organization_id: org.id }),
  });
  const pat = ((await tokenRes.json()) as { token: string }).token;
  const path = `/api/elements/${elementId}`;
  // Direct calls carry a service token as the gateway would sign it; signed ahead (renewed within its 30 s life),
  // so the direct path is the floor and the signing counts as gateway cost.
  const sign = () =>
    tokens.sign(
      {
        userId: user.id,
        username: "bench",
        organizationId: org.id,
        workspaceId: ws.id,
        role: "editor",
        platformAdmin: false,
        apiTokenId: null,
      },
      "tenant",
    );
  let serviceToken = await sign();
  const renew = setInterval(async () => {
    serviceToken = await sign();
  }, 10_000);

  /**
   * The machine may be busy: each iteration runs the direct call and the gateway call back to back (in alternating
   * order), and the added cost is the median of the paired differences.
   */
  async function compare(
    label: string,
    direct: () => Response | Promise<Response>,
    via: () => Response | Promise<Response>,
  ) {
    const once = async (call: () => Response | Promise<Response>) => {
      const t = performance.now();
      const res = await call();
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${label}: ${res.status}`);
      return performance.now() - t;
    };
    for (let i = 0; i < 300; i++) {
      await once(direct);
      await once(via);
    }
    const d: number[] = [];
    const v: number[] = [];
    const diff: number[] = [];
    for (let i = 0; i < iterations; i++) {
      let x: number;
      let y: number;
      if (i % 2 === 0) {
        x = await once(direct);
        y = await once(via);
      } else {
        y = await once(via);
        x = await once(direct);
      }
      d.push(x);
      v.push(y);
      diff.push(y - x);
    }
    const med = (xs: number[]) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)] * 1000;
    console.log(
      `${label.padEnd(40)} direct ${med(d).toFixed(0).padStart(5)} µs  via control ${med(v).toFixed(0).padStart(5)} µs  added (median of pairs) ${med(diff).toFixed(0).padStart(4)} µs`,
    );
  }

  console.log(`standalone (tenant in-process), ${iterations} pairs`);
  const direct = () => tenant.request(`http://t${path}`, { headers: { [SERVICE_TOKEN_HEADER]: serviceToken } });
  await compare("access JWT cookie", direct, () => standalone.request(`http://c${path}`, { headers: { cookie } }));
  await compare("personal API token", direct, () =>
    standalone.request(`http://c${path}`, { headers: { authorization: `Bearer ${pat}` } }),
  );

  // The gateway alone: the same decision and signing in front of an upstream that answers at once.
  const noop = { fetch: async () => new Response('{"ok":true}', { headers: { "content-type": "application/json" } }) };
  const bare = createControlApp({ database, tokens, env, upstreams: { tenant: noop } });
  console.log(`gateway alone (no-op upstream), ${iterations} pairs`);
  const noopDirect = () => noop.fetch();
  await compare("access JWT cookie", noopDirect, () => bare.request(`http://c${path}`, { headers: { cookie } }));
  await compare("personal API token", noopDirect, () =>
    bare.request(`http://c${path}`, { headers: { authorization: `Bearer ${pat}` } }),
  );

  const listen = (fetch: (r: Request) => Response | Promise<Response>) =>
    new Promise<{ url: string; close(): void }>((resolve) => {
      const server = serve({ fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) =>
        resolve({ url: `http://127.0.0.1:${info.port}`, close: () => server.close() }),
      );
    });
  const tenantServer = await listen(tenant.fetch);
  const split = createControlApp({
    database,
    tokens,
    env,
    upstreams: { tenant: createHttpUpstream(tenantServer.url) },
  });
  const controlServer = await listen(split.fetch);
  console.log(`split (both over HTTP on loopback), ${iterations} pairs`);
  const directHttp = () => fetch(`${tenantServer.url}${path}`, { headers: { [SERVICE_TOKEN_HEADER]: serviceToken } });
  await compare("access JWT cookie", directHttp, () => fetch(`${controlServer.url}${path}`, { headers: { cookie } }));
  await compare("personal API token", directHttp, () =>
    fetch(`${controlServer.url}${path}`, { headers: { authorization: `Bearer ${pat}` } }),
  );
  tenantServer.close();
  controlServer.close();
  clearInterval(renew);
} finally {
  await database.drop();
}
