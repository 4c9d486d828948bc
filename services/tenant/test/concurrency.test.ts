import { sql } from "@ams/db";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type OrgFixture, type TenantHarness, tenantHarness } from "./support/harness.ts";

/**
 * Optimistic concurrency (issue 24, no silent overwrite): every object GET answers an ETag (`"<revision>"`), every
 * PUT/DELETE of an object takes If-Match, and a stale one is refused with 412 and the object as it is now.
 */
let h: TenantHarness;
let org: OrgFixture;
beforeAll(async () => {
  h = await tenantHarness();
  org = await h.organization();
});
afterAll(() => h.close());

const tag = (revision: number) => `"${revision}"`;

async function element(name = "CRM") {
  const res = await org.editor.post("/api/elements", { name, type: "ApplicationComponent" });
  expect(res.status).toBe(201);
  return res.body as { id: string; name: string; documentation: string | null; revision: number };
}

describe("ETag and If-Match on an element", () => {
  test("GET answers the ETag of the element's revision; a matching If-Match writes and answers the new ETag", async () => {
    const el = await element();
    const got = await org.viewer.get(`/api/elements/${el.id}`);
    expect(got.headers.get("etag")).toBe(tag(el.revision));
    const put = await org.editor.put(`/api/elements/${el.id}`, { name: "CRM 2" }, { "if-match": tag(el.revision) });
    expect(put.status).toBe(200);
    expect(put.body.revision).toBeGreaterThan(el.revision);
    expect(put.headers.get("etag")).toBe(tag(put.body.revision));
  });

  test("a stale If-Match is 412 with the current element and its ETag, and writes nothing", async () => {
    const el = await element("Billing");
    const theirs = await org.editor.put(`/api/elements/${el.id}`, { documentation: "Theirs" });
    expect(theirs.status).toBe(200);
    const mine = await org.editor.put(`/api/elements/${el.id}`, { name: "Mine" }, { "if-match": tag(el.revision) });
    expect(mine.status).toBe(412);
    expect(mine.headers.get("content-type")).toContain("application/json");
    expect(mine.headers.get("etag")).toBe(tag(theirs.body.revision));
    expect(mine.body).toEqual(theirs.body);
    const now = await org.viewer.get(`/api/elements/${el.id}`);
    expect(now.body).toMatchObject({ name: "Billing", documentation: "Theirs", revision: theirs.body.revision });
    const deleted = await org.editor.delete(`/api/elements/${el.id}`, { "if-match": tag(el.revision) });
    expect(deleted.status).toBe(412);
    expect(deleted.body.name).toBe("Billing");
    expect((await org.viewer.get(`/api/elements/${el.id}`)).status).toBe(200);
    const gone = await org.editor.delete(`/api/elements/${el.id}`, { "if-match": tag(theirs.body.revision) });
    expect(gone.status).toBe(204);
  });

  test("If-Match: * and no If-Match write whatever the revision; a missing element stays 404", async () => {
    const el = await element("Portal");
    await org.editor.put(`/api/elements/${el.id}`, { documentation: "changed" });
    const star = await org.editor.put(`/api/elements/${el.id}`, { name: "Portal 2" }, { "if-match": "*" });
    expect(star.status).toBe(200);
    expect(star.body.name).toBe("Portal 2");
    const missing = await org.editor.put("/api/elements/id-none", { name: "X" }, { "if-match": '"1"' });
    expect(missing.status).toBe(404);
  });

  test.each([
    ["not quoted", "12"],
    ["weak", 'W/"12"'],
    ["a list", '"12", "13"'],
    ["empty", ""],
    ["not a number", '"abc"'],
  ])("a malformed If-Match (%s) is 400 naming the header, and writes nothing", async (_, value) => {
    const el = await element("Ledger");
    const res = await org.editor.put(`/api/elements/${el.id}`, { name: "Changed" }, { "if-match": value });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(res.body.detail).toContain("If-Match");
    expect((await org.viewer.get(`/api/elements/${el.id}`)).body.name).toBe("Ledger");
  });
});

describe("two writers with the same If-Match", () => {
  test("exactly one wins, the other gets 412 with the winner's element: the check is in the write's transaction", async () => {
    const el = await element("Contended");
    // Hold the workspace's row lock (the lock every change group takes first) so that both writes are under way,
    // past their route and verb entry, before either may commit: a check made before the write (a pre-read in the
    // route) would let both through.
    const lock = await holdWorkspaceLock();
    const writes = Promise.all([
      org.editor.put(`/api/elements/${el.id}`, { name: "Ana's name" }, { "if-match": tag(el.revision) }),
      org.owner.put(`/api/elements/${el.id}`, { name: "Ben's name" }, { "if-match": tag(el.revision) }),
    ]);
    await lock.release(2);
    const answers = await writes;
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 412]);
    const winner = answers.find((a) => a.status === 200);
    const loser = answers.find((a) => a.status === 412);
    expect(loser?.body).toEqual(winner?.body);
    expect(loser?.headers.get("etag")).toBe(tag(winner?.body.revision));
    const now = await org.viewer.get(`/api/elements/${el.id}`);
    expect(now.body.name).toBe(winner?.body.name);
  });

  test("the same holds for two moves of one node", async () => {
    const el = await element("Moved");
    const view = (await org.editor.post("/api/views", { name: "Main view" })).body;
    const node = (await org.editor.post(`/api/views/${view.id}/nodes`, { element_id: el.id, x: 10, y: 10 })).body;
    const path = `/api/views/${view.id}/nodes/${node.id}`;
    const lock = await holdWorkspaceLock();
    const writes = Promise.all([
      org.editor.put(path, { x: 100, y: 100 }, { "if-match": tag(node.revision) }),
      org.owner.put(path, { x: 300, y: 300 }, { "if-match": tag(node.revision) }),
    ]);
    await lock.release(2);
    const answers = await writes;
    expect(answers.map((a) => a.status).sort()).toEqual([200, 412]);
    const winner = answers.find((a) => a.status === 200);
    expect(answers.find((a) => a.status === 412)?.body).toMatchObject({ x: winner?.body.x, y: winner?.body.y });
  });
});

/**
 * Takes the workspace's row lock in a transaction of its own; resolves once it holds it, with `release`, which waits
 * (polled, bounded) until `count` sessions wait for a lock and then commits: the waiting writers go on one by one.
 */
async function holdWorkspaceLock(): Promise<{ release(count: number): Promise<void> }> {
  let held!: () => void;
  const holding = new Promise<void>((resolve) => {
    held = resolve;
  });
  let waiters!: (count: number) => void;
  const counted = new Promise<number>((resolve) => {
    waiters = resolve;
  });
  const done = h.database.db.transaction(async (tx) => {
    await h.database.rows(sql`select 1 from workspaces where id = ${org.workspaceId} for update`, tx);
    held();
    const count = await counted;
    for (let i = 0; i < 500; i++) {
      const [row] = await h.database.rows<{ n: number }>(
        sql`select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`,
      );
      if ((row?.n ?? 0) >= count) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`fewer than ${count} writers reached the lock`);
  });
  await holding;
  return {
    release(count) {
      waiters(count);
      return done;
    },
  };
}

describe("every object answers ETag and takes If-Match", () => {
  test("relationship, view, node, connection and property definition: 412 with the current object, then success", async () => {
    const a = await element("A");
    const b = await element("B");
    const rel = (await org.editor.post("/api/relationships", { type: "Serving", source: a.id, target: b.id })).body;
    const view = (await org.editor.post("/api/views", { name: "V" })).body;
    const na = (await org.editor.post(`/api/views/${view.id}/nodes`, { element_id: a.id, x: 0, y: 0 })).body;
    const nb = (await org.editor.post(`/api/views/${view.id}/nodes`, { element_id: b.id, x: 300, y: 0 })).body;
    const conn = (
      await org.editor.post(`/api/views/${view.id}/connections`, {
        source: na.id,
        target: nb.id,
        relationship_id: rel.id,
      })
    ).body;
    const def = (await org.editor.post("/api/property-definitions", { name: "Owner" })).body;
    const cases = [
      { path: `/api/relationships/${rel.id}`, get: true, obj: rel, theirs: { name: "t" }, mine: { name: "m" } },
      { path: `/api/views/${view.id}`, get: true, obj: view, theirs: { name: "t" }, mine: { name: "m" } },
      { path: `/api/views/${view.id}/nodes/${na.id}`, get: false, obj: na, theirs: { x: 5 }, mine: { x: 9 } },
      {
        path: `/api/views/${view.id}/connections/${conn.id}`,
        get: false,
        obj: conn,
        theirs: { label: "t" },
        mine: { label: "m" },
      },
      { path: `/api/property-definitions/${def.id}`, get: true, obj: def, theirs: { name: "T" }, mine: { name: "M" } },
    ];
    for (const c of cases) {
      if (c.get) expect((await org.viewer.get(c.path)).headers.get("etag"), c.path).toBe(tag(c.obj.revision));
      const theirs = await org.editor.put(c.path, c.theirs);
      expect(theirs.status, c.path).toBe(200);
      const stale = await org.editor.put(c.path, c.mine, { "if-match": tag(c.obj.revision) });
      expect(stale.status, c.path).toBe(412);
      expect(stale.body, c.path).toMatchObject({ id: c.obj.id, revision: theirs.body.revision, ...c.theirs });
      expect(stale.headers.get("etag"), c.path).toBe(tag(theirs.body.revision));
      const staleDelete = await org.editor.delete(c.path, { "if-match": tag(c.obj.revision) });
      expect(staleDelete.status, c.path).toBe(412);
      const resent = await org.editor.put(c.path, c.mine, { "if-match": tag(theirs.body.revision) });
      expect(resent.status, c.path).toBe(200);
      expect(resent.body, c.path).toMatchObject(c.mine);
    }
  });

  test("OpenAPI documents the ETag, the If-Match header and the 412 answer with the object's schema", async () => {
    const doc = (await org.viewer.get("/api/openapi.json")).body;
    const get = doc.paths["/api/elements/{id}"].get;
    expect(get.responses["200"].headers.ETag).toBeDefined();
    for (const method of ["put", "delete"]) {
      const op = doc.paths["/api/elements/{id}"][method];
      expect(op.parameters.some((p: { in: string; name: string }) => p.in === "header" && p.name === "if-match")).toBe(
        true,
      );
      // The element's own schema (as the 200 of GET documents it), not a problem body.
      expect(op.responses["412"].content["application/json"].schema).toEqual(
        get.responses["200"].content["application/json"].schema,
      );
      expect(op.responses["412"].headers.ETag).toBeDefined();
    }
    const node = doc.paths["/api/views/{id}/nodes/{nodeId}"].put;
    expect(node.responses["412"]).toBeDefined();
  });
});
