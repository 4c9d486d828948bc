import type { AddressInfo } from "node:net";
import { createControlApp, devDefaults, parseEnv, seedAccounts } from "@ams/control";
import { type Database, sql } from "@ams/db";
import { createTestDatabase } from "@ams/db/testing";
import { generateModel, replaceModel } from "@ams/model";
import { createServiceTokens, type ServiceClaims, silentLogger } from "@ams/shared";
import { createTenantApp, SERVICE_TOKEN_HEADER } from "@ams/tenant";
import { serve } from "@hono/node-server";
import { verifyPassword } from "../services/control/src/auth/passwords.ts";
import { archiWithWorkspace } from "./demo-user.ts";
import { interleave, load } from "./exchange/timing.ts";
import type { Stats } from "./lib.ts";
import { PAGE } from "./scale-model.ts";

const SECRET = "bench-secret-bench-secret-bench-secret!!";

export type OrgFigure = { op: string; orgs: number; value: Stats; floor: Stats };
export type OrgScaling = { counts: number[]; figures: OrgFigure[]; loadAverage: string };

/**
 * Sign-in and a model read through the gateway (standalone shape: control and tenant in one process) while the
 * database holds `counts` organizations, each with its own owner, workspace and API token. The floors, interleaved
 * with them: the argon2id check of the same password (what sign-in cannot avoid) and the same read sent straight to
 * the tenant with a service token (no authentication, membership lookup or token signing).
 */
export async function measureOrgScaling(counts: number[]): Promise<OrgScaling> {
  const database = await createTestDatabase("ams_bench_orgs");
  const tokens = createServiceTokens(SECRET);
  const env = parseEnv({ NODE_ENV: "test", DEMO_SEED: "true", TENANT_JWT_SECRET: SECRET });
  await seedAccounts(database, env);
  const tenant = createTenantApp({ database, tokens, log: silentLogger });
  const control = createControlApp({
    database,
    tokens,
    env,
    upstreams: { tenant: { fetch: async (r) => tenant.fetch(r) } },
    log: silentLogger,
  });
  const servers = [serve({ fetch: control.fetch, port: 0, hostname: "127.0.0.1" })];
  servers.push(serve({ fetch: tenant.fetch, port: 0, hostname: "127.0.0.1" }));
  try {
    await Promise.all(servers.map((s) => new Promise((r) => s.once("listening", r))));
    const [gateway, direct] = servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`);
    const { cookie, organizationId, workspaceId, token } = await archiWithWorkspace(gateway!);
    await database.db.transaction((tx) => replaceModel(database, tx, workspaceId, generateModel({ elements: 1000 })));
    const [archi] = await database.rows<{ id: string; hash: string }>(
      sql`select u.id, a.password as hash from users u join accounts a on a.user_id = u.id
          where u.username = 'archi' and a.password is not null`,
    );
    const claims: ServiceClaims = {
      userId: archi!.id,
      username: "archi",
      organizationId,
      workspaceId,
      role: "owner",
      platformAdmin: false,
      apiTokenId: null,
    };
    const serviceHeaders = { [SERVICE_TOKEN_HEADER]: await tokens.sign(claims, "tenant") };
    const renew = setInterval(async () => {
      serviceHeaders[SERVICE_TOKEN_HEADER] = await tokens.sign(claims, "tenant");
    }, 10_000);
    servers.push({ close: () => clearInterval(renew) } as never);

    const page = `/api/elements?limit=${PAGE}`;
    const read = (base: string, headers: Record<string, string>) => async () => {
      const res = await fetch(base + page, { headers });
      if (res.status !== 200) throw new Error(`read through ${base}: ${res.status} ${await res.text()}`);
      return res.arrayBuffer();
    };
    const signIn = async () => {
      const res = await fetch(`${gateway}/api/auth/local/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: "archi", password: devDefaults.SEED_ARCHI_PASSWORD }),
      });
      if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${await res.text()}`);
      return res.arrayBuffer();
    };

    const figures: OrgFigure[] = [];
    for (const target of counts) {
      const present = await addOrganizationsUpTo(database, target);
      await database.rows(sql`analyze organizations, users, accounts, memberships, workspaces, api_tokens`);
      const signIns = await interleave(
        { value: signIn, floor: () => verifyPassword(archi!.hash, devDefaults.SEED_ARCHI_PASSWORD) },
        { rounds: 40, warmup: 4 },
      );
      figures.push({ op: "sign-in", orgs: present, value: signIns.value!, floor: signIns.floor! });
      const reads = await interleave(
        {
          cookie: read(gateway!, { cookie }),
          token: read(gateway!, { authorization: `Bearer ${token}` }),
          floor: read(direct!, serviceHeaders),
        },
        { rounds: 300, warmup: 30 },
      );
      figures.push({ op: "model read, session cookie", orgs: present, value: reads.cookie!, floor: reads.floor! });
      figures.push({ op: "model read, API token", orgs: present, value: reads.token!, floor: reads.floor! });
      console.log(`      ${present} organizations: measured (${load()})`);
    }
    return { counts, figures, loadAverage: load() };
  } finally {
    for (const s of servers) s.close();
    await database.drop();
  }
}

/**
 * Organizations (with an owner who can sign in by SSO only, a workspace and a personal API token each) added in
 * set-based statements until `target` exist; answers the count present.
 */
async function addOrganizationsUpTo(database: Database, target: number): Promise<number> {
  const [{ n }] = (await database.rows<{ n: number }>(sql`select count(*)::int as n from organizations`)) as [
    { n: number },
  ];
  if (n < target) {
    await database.db.transaction(async (tx) => {
      const range = sql`generate_series(${n}::int, ${target - 1}::int) g`;
      await database.rows(
        sql`insert into users (id, name, email, username)
            select 'scale-' || g, 'Scale user ' || g, 'scale-' || g || '@example.com', 'scale-' || g from ${range}`,
        tx,
      );
      await database.rows(
        sql`insert into organizations (id, slug, name)
            select md5('scale-org-' || g)::uuid, 'scale-' || g, 'Scale org ' || g from ${range}`,
        tx,
      );
      await database.rows(
        sql`insert into memberships (organization_id, user_id, role)
            select md5('scale-org-' || g)::uuid, 'scale-' || g, 'owner' from ${range}`,
        tx,
      );
      await database.rows(
        sql`insert into workspaces (organization_id, name) select md5('scale-org-' || g)::uuid, 'Main' from ${range}`,
        tx,
      );
      await database.rows(
        sql`insert into api_tokens (user_id, organization_id, name, prefix, token_hash)
            select 'scale-' || g, md5('scale-org-' || g)::uuid, 'bench', 'ams_scale', encode(sha256(('scale-' || g)::bytea), 'hex')
            from ${range}`,
        tx,
      );
    });
  }
  const [{ count }] = (await database.rows<{ count: number }>(
    sql`select count(*)::int as count from organizations`,
  )) as [{ count: number }];
  return count;
}
