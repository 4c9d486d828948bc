import { compileQuery, type Database, type SQL, sql } from "@ams/db";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import {
  generateModel,
  getElement,
  getElementRelationships,
  listElements,
  loadRenderInput,
  type RequestContext,
  replaceModel,
} from "@ams/model";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { generateApiToken } from "../services/control/src/auth/api-token-format.ts";
import { lookupApiToken } from "../services/control/src/auth/api-token-lookup.ts";
import { resolveActive, resolveWorkspace } from "../services/control/src/gateway/resolve.ts";
import { cachedStandings } from "../services/control/src/gateway/standing-cache.ts";

/**
 * The query plans of the hot reads, on real PostgreSQL with a database the size of a busy one (two workspaces of
 * 20,000 elements with their relationships, views and property values; 5,000 organizations with their owners,
 * workspaces and API tokens) and current statistics, so the planner chooses as it would in production rather than
 * being forced (enable_seqscan = off would only show that an index exists, not that it is the cheaper plan).
 *
 * The statements are captured from the real code: the verbs run against a Database that records every statement it
 * is given, so a query changed in the code is the query checked here. Each one is explained twice: EXPLAIN ANALYZE
 * with its parameters (the custom plan, with the rows really read), and EXPLAIN EXECUTE of it prepared under
 * plan_cache_mode = force_generic_plan (the plan postgres.js's named statements settle on after a few runs).
 */

const ELEMENTS = 20_000;
const ORGANIZATIONS = 5_000;
/** Of those, the first 2,000 have a team (so the team tables are big enough for their plans to matter). */
const TEAM_ORGANIZATIONS = 2_000;
/** Tables at least this large must be reached through an index. */
const BIG_TABLE_ROWS = 1_000;
/** A hot read answers one page or one item; reading more rows than this means its cost grows with the data. */
const MAX_ROWS_READ = 1_000;

type Captured = { text: string; params: unknown[] };
type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Plan Rows": number;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
};

let database: TestDatabase;
let pg: postgres.Sql;
let big: Map<string, number>;
let ctx: RequestContext;
let userId: string;
let token: string;
let prepared = 0;

/** A Database that hands every statement on and keeps a copy of it (text and parameters, as PostgreSQL gets them). */
function recording(inner: Database) {
  const seen: Captured[] = [];
  const db: Database = {
    ...inner,
    rows(query, on) {
      const { sql: text, params } = compileQuery(query as SQL);
      seen.push({ text, params });
      return inner.rows(query, on);
    },
  };
  return { db, take: () => seen.splice(0) };
}

beforeAll(async () => {
  database = await createTestDatabase("ams_plans");
  pg = postgres(database.url, { max: 1, onnotice: () => {} });
  const [org] = await database.rows<{ id: string }>(
    sql`insert into organizations (slug, name) values ('plans', 'Plans') returning id`,
  );
  const workspaces: string[] = [];
  for (const name of ["Measured", "Neighbour"]) {
    const [ws] = await database.rows<{ id: string }>(
      sql`insert into workspaces (organization_id, name) values (${org!.id}, ${name}) returning id`,
    );
    const doc = generateModel({ elements: ELEMENTS, properties: true, seed: 7 });
    // Relationships carry property values too in real models (ArchiMetal's do).
    doc.properties.push(
      ...doc.relationships.map((r, i) => ({
        ownerKind: "relationship" as const,
        ownerId: r.id,
        ord: 0,
        definitionId: doc.propertyDefinitions[0]!.id,
        value: `value ${i}`,
        i18n: null,
      })),
    );
    await database.db.transaction((tx) => replaceModel(database, tx, ws!.id, doc));
    workspaces.push(ws!.id);
  }
  await seedOrganizations(database, ORGANIZATIONS);
  const secret = generateApiToken();
  userId = "plans-owner";
  token = secret.token;
  await database.rows(
    sql`insert into users (id, name, email, username) values (${userId}, 'Owner', 'owner@plans.test', 'plans-owner')`,
  );
  await database.rows(
    sql`insert into memberships (organization_id, user_id, role) values (${org!.id}, ${userId}, 'owner')`,
  );
  await database.rows(
    sql`insert into api_tokens (user_id, organization_id, name, prefix, token_hash)
        values (${userId}, ${org!.id}, 'plans', ${secret.prefix}, ${secret.tokenHash})`,
  );
  await pg.unsafe("vacuum analyze");
  const sizes = await pg<{ relname: string; n: number }[]>`
    select relname, reltuples::int as n from pg_class where relkind = 'r' and relnamespace = 'public'::regnamespace`;
  big = new Map(sizes.filter((s) => s.n >= BIG_TABLE_ROWS).map((s) => [s.relname, s.n]));
  ctx = {
    database,
    userId,
    username: "plans-owner",
    organizationId: org!.id,
    workspaceId: workspaces[0]!,
    role: "owner",
    platformAdmin: false,
  };
}, 300_000);

afterAll(async () => {
  await pg?.end({ timeout: 5 });
  await database?.drop();
});

/** Organizations, each with an owner, a workspace and an API token, in set-based statements. */
async function seedOrganizations(db: Database, count: number) {
  const range = sql`generate_series(1, ${count}::int) g`;
  await db.rows(sql`insert into users (id, name, email, username)
    select 'u-' || g, 'User ' || g, 'u-' || g || '@plans.test', 'u-' || g from ${range}`);
  await db.rows(sql`insert into organizations (id, slug, name)
    select md5('org-' || g)::uuid, 'org-' || g, 'Org ' || g from ${range}`);
  await db.rows(sql`insert into memberships (organization_id, user_id, role)
    select md5('org-' || g)::uuid, 'u-' || g, 'owner' from ${range}`);
  await db.rows(
    sql`insert into workspaces (organization_id, name) select md5('org-' || g)::uuid, 'Main' from ${range}`,
  );
  await db.rows(sql`insert into api_tokens (user_id, organization_id, name, prefix, token_hash)
    select 'u-' || g, md5('org-' || g)::uuid, 't', 'ams_pat_x', encode(sha256(('t-' || g)::bytea), 'hex') from ${range}`);
  // Teams in the first TEAM_ORGANIZATIONS: one each, its owner a member, its workspace assigned to it.
  const teamRange = sql`generate_series(1, ${TEAM_ORGANIZATIONS}::int) g`;
  await db.rows(sql`insert into teams (id, organization_id, name)
    select md5('team-' || g)::uuid, md5('org-' || g)::uuid, 'Team' from ${teamRange}`);
  await db.rows(
    sql`insert into team_members (team_id, user_id) select md5('team-' || g)::uuid, 'u-' || g from ${teamRange}`,
  );
  await db.rows(sql`insert into workspace_teams (workspace_id, team_id)
    select w.id, md5('team-' || g)::uuid from ${teamRange} join workspaces w on w.organization_id = md5('org-' || g)::uuid`);
}

/** The statements `run` sends to the database. */
async function capture(run: (db: Database) => Promise<unknown>): Promise<Captured[]> {
  const rec = recording(database);
  await run(rec.db);
  const seen = rec.take();
  expect(seen.length).toBeGreaterThan(0);
  return seen;
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

/** What is wrong with one plan, as lines naming the node; empty when nothing is. */
function problems(plan: PlanNode, analyzed: boolean): string[] {
  const out: string[] = [];
  let read = 0;
  for (const node of nodes(plan)) {
    const table = node["Relation Name"];
    if (node["Node Type"] === "Seq Scan" && table && big.has(table)) {
      out.push(`Seq Scan on ${table} (${big.get(table)} rows)`);
    }
    if (node["Node Type"] === "Sort") {
      const input = node.Plans?.[0]?.["Plan Rows"] ?? 0;
      if (input > MAX_ROWS_READ) out.push(`Sort of ${input} rows (estimated) for one answer`);
    }
    if (analyzed && table && big.has(table)) {
      const loops = node["Actual Loops"] ?? 1;
      read +=
        ((node["Actual Rows"] ?? 0) +
          (node["Rows Removed by Filter"] ?? 0) +
          (node["Rows Removed by Index Recheck"] ?? 0)) *
        loops;
    }
  }
  if (read > MAX_ROWS_READ) out.push(`reads ${read} rows of big tables for one answer`);
  return out;
}

/** Both plans of every statement; the problems found, by statement. */
async function checkPlans(statements: Captured[]): Promise<string[]> {
  const found: string[] = [];
  for (const { text, params } of statements) {
    const [custom] = await pg.unsafe(`explain (analyze, format json) ${text}`, params as never[]);
    const customPlan = (custom!["QUERY PLAN"] as { Plan: PlanNode }[])[0]!.Plan;
    // PREPARE needs the parameter types PostgreSQL inferred for the statement as the driver sends it.
    const described = await pg.unsafe(text, params as never[]).describe();
    const [{ types }] = (await pg.unsafe(
      "select array(select format_type(t, null) from unnest($1::oid[]) t) as types",
      [described.types] as never[],
    )) as unknown as [{ types: string[] }];
    const name = `plans_${++prepared}`;
    const typed = types.length ? `(${types.join(", ")})` : "";
    await pg.unsafe(`prepare ${name}${typed} as ${text}`);
    let generic: Record<string, unknown> | undefined;
    try {
      await pg.unsafe("set plan_cache_mode = force_generic_plan");
      // EXECUTE's arguments cannot be bound parameters of an EXPLAIN; PostgreSQL quotes them as literals instead.
      const [{ literals }] = (await pg.unsafe(
        "select array(select quote_nullable(v) from unnest($1::text[]) v) as literals",
        [params.map((v) => (v === null || v === undefined ? null : String(v)))] as never[],
      )) as unknown as [{ literals: string[] }];
      const args = types.map((type, k) => `${literals[k]}::${type}`).join(", ");
      [generic] = await pg.unsafe(`explain (format json) execute ${name}${args ? `(${args})` : ""}`);
    } finally {
      await pg.unsafe(`deallocate ${name}`);
      await pg.unsafe("reset plan_cache_mode");
    }
    const genericPlan = (generic!["QUERY PLAN"] as { Plan: PlanNode }[])[0]!.Plan;
    const trouble = [
      ...problems(customPlan, true).map((p) => `custom plan: ${p}`),
      ...problems(genericPlan, false).map((p) => `generic plan: ${p}`),
    ];
    if (trouble.length) found.push(`${trouble.join("; ")}\n    in: ${text.replace(/\s+/g, " ").slice(0, 300)}`);
  }
  return found;
}

describe("the hot reads use indexes and read only what they answer", () => {
  test.each([
    [
      "a page of the element list",
      (db: Database) => listElements({ ctx: { ...ctx, database: db }, input: { limit: 100, after: "e-9000" } }),
    ],
    [
      "a page of the element list filtered by type",
      (db: Database) =>
        listElements({ ctx: { ...ctx, database: db }, input: { limit: 100, type: "Node", after: "e-9000" } }),
    ],
    ["an element by id", (db: Database) => getElement({ ctx: { ...ctx, database: db }, input: { id: "e-12345" } })],
    [
      "the relationships of an element",
      (db: Database) => getElementRelationships({ ctx: { ...ctx, database: db }, input: { id: "e-12345" } }),
    ],
    ["the nodes and connections of a view", (db: Database) => loadRenderInput(db, ctx.workspaceId!, "v-37")],
    ["the signed-in user's memberships", (db: Database) => resolveActive(db, "u-4321")],
    [
      "the signed-in user's memberships where the organization has teams",
      (db: Database) => resolveActive(db, "u-1234"),
    ],
    ["the user's standing in a workspace", (db: Database) => resolveWorkspace(db, userId, ctx.workspaceId!)],
    ["an API token by its hash", (db: Database) => lookupApiToken(db, token, new Date())],
  ])("%s", async (_name, run) => {
    const statements = await capture(run);
    expect(await checkPlans(statements)).toEqual([]);
  });

  test("the gateway's per-request choice sends one statement, and a second only where the organization has teams", async () => {
    expect(await capture((db) => resolveActive(db, "u-4321"))).toHaveLength(1);
    const withTeams = await capture((db) => resolveActive(db, "u-1234"));
    expect(withTeams).toHaveLength(2);
    expect(withTeams[0]!.text).not.toMatch(/team_members|workspace_teams/);
    expect(withTeams[1]!.text).toMatch(/team_members/);
  });

  test("a remembered standing costs one primary-key lookup of the user's access counter per request", async () => {
    // The cache keeps its database; each capture records through its own recording one.
    let current: Database = database;
    const through: Database = { ...database, rows: (query, on) => current.rows(query, on) };
    const remembered = cachedStandings(through, {
      active: (user, preferred) => resolveActive(current, user, preferred),
      organization: () => Promise.resolve(null),
      workspace: () => Promise.resolve(null),
    });
    const ask = (db: Database) => {
      current = db;
      return remembered.active("u-1234");
    };
    expect(await capture(ask)).toHaveLength(3);
    const again = await capture(ask);
    expect(again).toHaveLength(1);
    expect(again[0]!.text).toMatch(/from access_versions where user_id =/);
    expect(await checkPlans(again)).toEqual([]);
  });

  test("the check fails on a plan that scans a big table (the test can fail)", async () => {
    const found = await checkPlans([
      { text: "select id from elements where workspace_id = $1 and name = $2", params: [ctx.workspaceId, "x"] },
    ]);
    expect(found.join("\n")).toMatch(/Seq Scan on elements/);
  });
});
