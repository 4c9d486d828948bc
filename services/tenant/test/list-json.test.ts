/**
 * `GET /api/elements` without `limit` is written on PostgreSQL straight from COPY's output (packages/model/src/
 * copy-json.ts); a page is serialized from the elements. On real PostgreSQL, the two answer the same bytes for the
 * same elements: every character that COPY or JSON escapes, unicode, typed property values, nulls, `after` (written
 * into the statement as a literal), and an empty workspace. A filtered list is serialized from the elements.
 */
import { type Database, openDatabase, sql } from "@ams/db";
import { clearListMemory, getElement, listElementsJson, listRelationships, listRelationshipsJson } from "@ams/model";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type OrgFixture, type TenantHarness, tenantHarness } from "./support/harness.ts";

let h: TenantHarness;
let copies = 0;
beforeAll(async () => {
  h = await tenantHarness();
  // Counts the statements run through COPY, so each test shows which way its answer was written.
  const copyOut = h.database.copyOut?.bind(h.database);
  if (!copyOut) throw new Error("the PostgreSQL database has no copyOut");
  h.database.copyOut = (query, piece) => {
    copies++;
    return copyOut(query, piece);
  };
});
afterAll(() => h.close());

const tricky = [
  'Quote " and backslash \\ and \\N',
  "\\N",
  "tab\tnewline\nreturn\rback\bform\fvertical\v",
  "controls \u0001\u0007\u001b\u001f and DEL \u007f",
  "Ünïcödé 中文 🚀 \u2028 \u2029",
  "it's ' quoted '' twice",
  "ends with a backslash \\",
];

/** A viewer's context for calling the model's verbs directly on `database`. */
const reader = (org: OrgFixture, database: Database) => ({
  database,
  userId: "reader",
  username: "reader",
  organizationId: org.orgId,
  workspaceId: org.workspaceId,
  role: "viewer" as const,
  platformAdmin: false,
});

async function model(org: OrgFixture) {
  for (const [name, type] of [
    ["Owner", "string"],
    ["Cost", "number"],
    ["Live", "boolean"],
  ]) {
    expect((await org.editor.post("/api/property-definitions", { name, type })).status).toBe(201);
  }
  const ids: string[] = [];
  for (let i = 0; i < tricky.length * 2; i++) {
    const type = i % 3 ? "ApplicationComponent" : "BusinessActor";
    const made = await org.editor.post("/api/elements", { name: `Element ${i}`, type });
    expect(made.status).toBe(201);
    ids.push(made.body.id as string);
  }
  const typed = { Owner: 'Fin"ance\\', Cost: "12.50", Live: "true" };
  expect((await org.editor.put(`/api/elements/${ids[1]}`, { properties: typed })).status).toBe(200);
  expect((await org.editor.put(`/api/elements/${ids[2]}`, { properties: { Cost: "1e5", Live: false } })).status).toBe(
    200,
  );
  // Names and documentation the API's input hygiene would refuse (control characters) are written to the rows
  // directly, as an import of an older model or a hand-edited database might hold them.
  await h.database.db.transaction(async (tx) => {
    await h.database.rows(sql`select set_config('ams.capture', 'off', true)`, tx);
    for (const [k, text] of tricky.entries()) {
      await h.database.rows(
        sql`update elements set name = ${text}, documentation = ${k % 2 ? null : `${text}\n${text}`}
        where workspace_id = ${org.workspaceId} and id = ${ids[k]}`,
        tx,
      );
    }
  });
  clearListMemory();
  return ids;
}

describe("the whole element list written from COPY", () => {
  test("answers the bytes a page of the same elements answers", async () => {
    const org = await h.organization();
    const ids = await model(org);
    const before = copies;
    const whole = await org.viewer.get("/api/elements");
    expect(copies).toBe(before + 1);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("application/json");
    const paged = await org.viewer.get("/api/elements?limit=1000");
    expect(copies).toBe(before + 1);
    expect(whole.text).toBe(paged.text);
    expect(whole.body).toHaveLength(ids.length);
    expect(whole.body[0].name).toBe(tricky[0]);
    expect(whole.body[3].name).toBe(tricky[3]);
    expect(whole.body[1].documentation).toBeNull();
    expect(whole.body[2].documentation).toBe(`${tricky[2]}\n${tricky[2]}`);
    expect(whole.body[1].properties).toEqual({ Owner: 'Fin"ance\\', Cost: 12.5, Live: true });
    expect(whole.body[2].properties).toEqual({ Cost: 100000, Live: false });
    expect(whole.body[5].properties).toEqual({});
    expect(typeof whole.body[0].revision).toBe("number");
  });

  test("after, its text written into the statement, answers what a page answers; filters are not copied", async () => {
    const org = await h.organization();
    const ids = await model(org);
    for (const after of [ids[4], ids[0], ids.at(-1)]) {
      const before = copies;
      const whole = await org.viewer.get(`/api/elements?after=${after}`);
      expect(copies).toBe(before + 1);
      const paged = await org.viewer.get(`/api/elements?after=${after}&limit=1000`);
      expect(whole.status).toBe(200);
      expect(whole.text).toBe(paged.text);
    }
    const hostile = await org.viewer.get(`/api/elements?after=${encodeURIComponent("x' or '1'='1")}`);
    expect(hostile.status).toBe(422);
    expect(hostile.body.errors).toMatchObject([{ path: "query.after" }]);
    const before = copies;
    for (const query of ["type=BusinessActor", `name=${encodeURIComponent("'")}`]) {
      const filtered = await org.viewer.get(`/api/elements?${query}`);
      expect(filtered.text).toBe((await org.viewer.get(`/api/elements?${query}&limit=1000`)).text);
    }
    expect(copies).toBe(before);
    const quoted = await org.viewer.get(`/api/elements?name=${encodeURIComponent("'")}`);
    expect(quoted.body.map((e: { name: string }) => e.name)).toEqual([tricky[5]]);
    const injected = await org.viewer.get(`/api/elements?name=${encodeURIComponent("' or '1'='1")}`);
    expect(injected.body).toEqual([]);
  });

  test("an unknown after is refused as a page refuses it; an empty workspace answers []", async () => {
    const org = await h.organization();
    await model(org);
    const whole = await org.viewer.get("/api/elements?after=no-such-element");
    const paged = await org.viewer.get("/api/elements?after=no-such-element&limit=10");
    expect(whole.status).toBe(422);
    expect(whole.body.errors).toEqual(paged.body.errors);
    const empty = await h.organization();
    const none = await empty.viewer.get("/api/elements");
    expect(none.status).toBe(200);
    expect(none.text).toBe("[]");
  });
});

describe("the whole relationship list written from COPY", () => {
  test("answers the bytes of the relationships serialized, with each type's own keys", async () => {
    const org = await h.organization();
    await model(org);
    const element = async (type: string) => (await org.editor.post("/api/elements", { name: type, type })).body.id;
    const [app, data, goal, aim, service] = [
      await element("ApplicationComponent"),
      await element("DataObject"),
      await element("Goal"),
      await element("Goal"),
      await element("ApplicationService"),
    ];
    const made: string[] = [];
    for (const body of [
      { type: "Association", source: app, target: goal, name: tricky[0] },
      { type: "Association", source: goal, target: data, is_directed: true },
      { type: "Access", source: app, target: data },
      { type: "Access", source: service, target: data, access_type: "Read" },
      { type: "Influence", source: goal, target: aim },
      { type: "Influence", source: aim, target: goal, influence_strength: "++" },
      { type: "Serving", source: service, target: app, documentation: tricky[4] },
    ]) {
      const res = await org.editor.post("/api/relationships", body);
      expect(res.status, JSON.stringify(body)).toBe(201);
      made.push(res.body.id as string);
    }
    const owned = await org.editor.put(`/api/relationships/${made[6]}`, { properties: { Owner: "Ops", Cost: "3" } });
    expect(owned.status).toBe(200);
    await h.database.db.transaction(async (tx) => {
      await h.database.rows(sql`select set_config('ams.capture', 'off', true)`, tx);
      // Rows written before the defaults were stored (null where the answer shows Write and false).
      await h.database.rows(
        sql`update relationships set name = ${tricky[2]}, access_type = null where id = ${made[2]}`,
        tx,
      );
      await h.database.rows(sql`update relationships set is_directed = null where id = ${made[0]}`, tx);
    });
    clearListMemory();
    const before = copies;
    const whole = await org.viewer.get("/api/relationships");
    expect(copies).toBe(before + 1);
    expect(whole.status).toBe(200);
    const ctx = reader(org, h.database);
    clearListMemory();
    expect(whole.text).toBe(JSON.stringify(await listRelationships({ ctx, input: {} })));
    const byId = new Map((whole.body as { id: string }[]).map((r) => [r.id as string | undefined, r]));
    expect(byId.get(made[0])).toMatchObject({ name: tricky[0], is_directed: false });
    expect(byId.get(made[1])).toMatchObject({ is_directed: true });
    expect(byId.get(made[2])).toMatchObject({ name: tricky[2], access_type: "Write" });
    expect(byId.get(made[3])).toMatchObject({ access_type: "Read" });
    expect(byId.get(made[4])).not.toHaveProperty("influence_strength");
    expect(byId.get(made[5])).toMatchObject({ influence_strength: "++" });
    expect(byId.get(made[6])).toMatchObject({ documentation: tricky[4], properties: { Owner: "Ops", Cost: 3 } });
    expect(byId.get(made[6])).not.toHaveProperty("access_type");
    // A filtered list is serialized from the relationships, not copied.
    const filtered = await org.viewer.get("/api/relationships?type=Access");
    expect(copies).toBe(before + 1);
    expect(filtered.body.map((r: { id: string }) => r.id)).toEqual([made[2], made[3]]);
  });
});

describe("copies beside other statements on one pool", () => {
  test("a pool of two serves copies and ordinary reads at once without refusing any", async () => {
    const org = await h.organization();
    const ids = await model(org);
    // Its own small pool, so that the copies and the reads must share connections.
    const database = await openDatabase({ url: h.database.url, maxConnections: 2, migrate: false });
    try {
      const ctx = reader(org, database);
      const expected = (await org.viewer.get("/api/elements?limit=1000")).text;
      const work = Array.from({ length: 40 }, (_, i) => {
        clearListMemory();
        if (i % 4 === 0) return listElementsJson({ ctx, input: {} }).then((b) => Buffer.from(b.body).toString());
        if (i % 4 === 1) return listRelationshipsJson({ ctx, input: {} }).then(() => "relationships");
        return getElement({ ctx, input: { id: ids[i % ids.length] as string } }).then((e) => e.id);
      });
      const answers = await Promise.allSettled(work);
      expect(answers.filter((a) => a.status === "rejected")).toEqual([]);
      const lists = answers.filter((_, i) => i % 4 === 0).map((a) => (a as PromiseFulfilledResult<string>).value);
      expect(new Set(lists)).toEqual(new Set([expected]));
    } finally {
      await database.close();
    }
  });
});
