import { sql } from "@ams/db";
import { type BackgroundGraph, startGraphInBackground } from "@ams/graph";
import type { GraphAnswerCache } from "@ams/model";
import { silentLogger } from "@ams/shared";
import { createTenantApp } from "@ams/tenant";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestNeo4j, type TestNeo4j } from "../../../../packages/graph/test/support/neo4j.ts";
import { type Credentials, cookiesOf, createHarness, type Harness, type TestUser } from "../support/harness.ts";

/**
 * The explore answer cache through the real gateway, the real tenant app and the graph as the standalone shape
 * composes it (startGraphInBackground: the change feed wakes the sync, which applies the change log to a real
 * Neo4j), on real PostgreSQL. A repeated query on an unchanged graph comes from memory; no answer crosses a team
 * boundary or an organization, and none survives a model change.
 */
let n4j: TestNeo4j;
let h: Harness;
let graph: BackgroundGraph;
let owner: TestUser;
let inTeam: TestUser;
let outside: TestUser;
let stranger: TestUser;
let orgId: string;
let open: string;
let secret: string;
let otherWs: string;
let teamId: string;
const ORIGIN = "http://control.test";
const COOKIE = "ams.session_token";
const QUERY = "MATCH (e:Element) RETURN e.name AS name ORDER BY name";

beforeAll(async () => {
  n4j = await startTestNeo4j();
  h = await createHarness({
    env: { AUTH_MODE: "session" },
    tenant: ({ database, tokens }) => {
      graph = startGraphInBackground({
        database,
        worker: true,
        log: silentLogger,
        env: {
          NEO4J_URL: n4j.url,
          NEO4J_USER: n4j.user,
          NEO4J_PASSWORD: n4j.password,
          GRAPH_BUILD_RECENT_HOURS: "0",
          GRAPH_RETIRE_GRACE_MS: "700",
        },
      });
      return createTenantApp({ database, tokens, graph: graph.handle, log: silentLogger });
    },
    mcp: null,
  });
  await graph.ready;
  owner = await h.user("olga");
  inTeam = await h.user("tess");
  outside = await h.user("oscar");
  stranger = await h.user("sven");
  const org = await h.org("Cache Inc", [
    [owner, "owner"],
    [inTeam, "member"],
    [outside, "member"],
  ]);
  orgId = org.id;
  open = (await h.workspace(orgId, "Open")).id;
  secret = (await h.workspace(orgId, "Secret")).id;
  const other = await h.org("Elsewhere Ltd", [[stranger, "owner"]]);
  otherWs = (await h.workspace(other.id, "Model")).id;

  const o = await session(owner);
  const created = await write(o, "POST", `/api/organizations/${orgId}/teams`, { name: "Core" });
  expect(created.status).toBe(201);
  teamId = ((await created.json()) as { id: string }).id;
  expect((await write(o, "PUT", `/api/organizations/${orgId}/teams/${teamId}/members/${inTeam.id}`)).status).toBe(204);
  expect((await write(o, "PUT", `/api/workspaces/${secret}/teams`, { team_ids: [teamId] })).status).toBe(200);

  await h.select(owner.id, orgId, open);
  await createElement(await session(owner), "OPEN-ONE");
  await h.select(owner.id, orgId, secret);
  await createElement(await session(owner), "SECRET-ONE");
  await h.select(stranger.id, other.id, otherWs);
  await createElement(await session(stranger), "ELSEWHERE-ONE");
  await h.select(inTeam.id, orgId, secret);
  await h.select(outside.id, orgId, open);
  for (const ws of [open, secret, otherWs]) await graphCaughtUp(ws);
}, 400_000);

afterAll(async () => {
  await graph?.close();
  await h?.close();
  await n4j?.stop();
});

async function session(user: TestUser): Promise<Credentials> {
  const res = await h.call("POST", "/auth/sign-in/username", {
    body: { username: user.username, password: user.password },
    headers: { origin: ORIGIN },
  });
  expect(res.status).toBe(200);
  return { cookies: { [COOKIE]: cookiesOf(res)[COOKIE] ?? "" } };
}

const write = (as: Credentials, method: string, path: string, body?: unknown) =>
  h.call(method, path, { as, body, headers: { origin: ORIGIN } });

async function createElement(as: Credentials, name: string) {
  const res = await write(as, "POST", "/api/elements", { name, type: "ApplicationComponent" });
  expect(res.status).toBe(201);
}

type Answer = { rows: string[][]; graph: { revision: number; model_revision: number; behind: number } };

async function explore(as: Credentials): Promise<{ status: number; body: Answer }> {
  const res = await write(as, "POST", "/api/explore", { query: QUERY });
  return { status: res.status, body: (await res.json()) as Answer };
}

const names = (answer: Answer) => answer.rows.map((r) => r[0]);
const cache = () => graph.handle.get()?.answers as GraphAnswerCache;

/** Waits until the graph sync has applied the workspace's latest change group (its revision in Neo4j). */
async function graphCaughtUp(ws: string): Promise<number> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const [row] = await h.database.rows<{ revision: string }>(sql`select revision from workspaces where id = ${ws}`);
    const { records } = await n4j.driver.executeQuery(
      "MATCH (m:GraphMeta {workspace_id: $ws}) RETURN m.revision AS revision",
      { ws },
    );
    const inGraph = records[0]?.get("revision");
    if (inGraph !== undefined && inGraph !== null && Number(inGraph) === Number(row?.revision)) {
      // Explore remembers a workspace's slot and revision for half a second (explore.ts, SLOT_TTL_MS): the answers
      // after that show the revision the graph reached, not the one before the sync (which applies in milliseconds).
      await new Promise((r) => setTimeout(r, 600));
      return Number(inGraph);
    }
    if (Date.now() > deadline) throw new Error(`the graph of ${ws} did not catch up with revision ${row?.revision}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("explore answers from memory", () => {
  test("a repeated query on an unchanged graph is answered from memory, with the graph's revision", async () => {
    const t = await session(inTeam);
    const first = await explore(t);
    expect(first.status).toBe(200);
    expect(names(first.body)).toEqual(["SECRET-ONE"]);
    const before = cache().stats();
    const again = await explore(t);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const revision = await graphCaughtUp(secret);
    expect(again.body.graph).toEqual({ revision, model_revision: revision, behind: 0 });
    expect(cache().stats().hits).toBe(before.hits + 1);
    expect(cache().stats().misses).toBe(before.misses);
  });

  test("no answer crosses a team boundary: other visibility, other entry; out of the team, no answer at all", async () => {
    const t = await session(inTeam);
    expect(names((await explore(t)).body)).toEqual(["SECRET-ONE"]);
    // The member outside the team asks the same query: their own workspace's answer, never the team's.
    const m = await session(outside);
    const mine = await explore(m);
    expect(mine.status).toBe(200);
    expect(names(mine.body)).toEqual(["OPEN-ONE"]);
    // The owner (no team) sees the same workspace with another visibility: asked anew, not served the team's entry.
    await h.select(owner.id, orgId, secret);
    const before = cache().stats();
    const owners = await explore(await session(owner));
    expect(names(owners.body)).toEqual(["SECRET-ONE"]);
    expect(cache().stats().misses).toBe(before.misses + 1);
    // Taken out of the team, the member's cached answer stays in memory but is never served to them again.
    const o = await session(owner);
    expect((await write(o, "DELETE", `/api/organizations/${orgId}/teams/${teamId}/members/${inTeam.id}`)).status).toBe(
      204,
    );
    // The gateway no longer resolves the secret workspace for them: no answer of it reaches them.
    const after = await write(t, "POST", "/api/explore", { query: QUERY });
    expect(after.status).toBe(404);
    expect(await after.text()).not.toContain("SECRET-ONE");
    expect((await write(o, "PUT", `/api/organizations/${orgId}/teams/${teamId}/members/${inTeam.id}`)).status).toBe(
      204,
    );
    await h.select(inTeam.id, orgId, secret);
    expect(names((await explore(await session(inTeam))).body)).toEqual(["SECRET-ONE"]);
  });

  test("no answer crosses an organization: the same query elsewhere is answered from that organization's graph", async () => {
    const s = await session(stranger);
    const first = await explore(s);
    expect(first.status).toBe(200);
    expect(names(first.body)).toEqual(["ELSEWHERE-ONE"]);
    expect(names((await explore(s)).body)).toEqual(["ELSEWHERE-ONE"]);
  });

  test("no answer survives a model change: write, wait for the sync, query: the new answer", async () => {
    const t = await session(inTeam);
    const before = await explore(t);
    expect(names(before.body)).toEqual(["SECRET-ONE"]);
    expect(names((await explore(t)).body)).toEqual(["SECRET-ONE"]);
    await h.select(owner.id, orgId, secret);
    const o = await session(owner);
    await createElement(o, "SECRET-TWO");
    const revision = await graphCaughtUp(secret);
    const after = await explore(t);
    expect(after.status).toBe(200);
    expect(names(after.body)).toEqual(["SECRET-ONE", "SECRET-TWO"]);
    expect(after.body.graph).toEqual({ revision, model_revision: revision, behind: 0 });
    expect(revision).toBeGreaterThan(before.body.graph.revision);
    // A rename changes no element count: still a new answer once the sync applied it.
    const [row] = await h.database.rows<{ id: string }>(
      sql`select id from elements where workspace_id = ${secret} and name = 'SECRET-ONE'`,
    );
    expect((await write(o, "PUT", `/api/elements/${row?.id}`, { name: "SECRET-RENAMED" })).status).toBe(200);
    await graphCaughtUp(secret);
    expect(names((await explore(t)).body)).toEqual(["SECRET-RENAMED", "SECRET-TWO"]);
    // Other workspaces' answers were not touched by this change: still from memory.
    const hits = cache().stats().hits;
    expect(names((await explore(await session(stranger))).body)).toEqual(["ELSEWHERE-ONE"]);
    expect(cache().stats().hits).toBe(hits + 1);
  });
});
