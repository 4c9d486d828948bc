import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import {
  createElement,
  createNode,
  createPropertyDefinition,
  createRelationship,
  createView,
  deleteElement,
  deleteNode,
  deleteRelationship,
  deleteView,
  exportModel,
  generateModel,
  importModel,
  readGraphMeta,
  scopeLabel,
  updateElement,
  updatePropertyDefinition,
  updateRelationship,
} from "@ams/model";
import neo4j from "neo4j-driver";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { graphRows } from "../src/graph-rows.ts";
import { readGraphSource } from "../src/read-source.ts";
import { type SyncOptions, syncWorkspace } from "../src/sync.ts";
import { writeGraph } from "../src/write-graph.ts";
import { startTestNeo4j, type TestNeo4j } from "./support/neo4j.ts";
import { contextFor, seedWorkspace } from "./support/seed.ts";

let db: TestDatabase;
let n4j: TestNeo4j;

beforeAll(async () => {
  [db, n4j] = await Promise.all([createTestDatabase("ams_graph_sync"), startTestNeo4j()]);
}, 300_000);
afterAll(async () => {
  await db?.drop();
  await n4j?.stop();
});

const options = (extra: Partial<SyncOptions> = {}): SyncOptions => ({
  database: db,
  neo4j: n4j.driver,
  graceMs: 0,
  ...extra,
});

async function meta(ws: string) {
  const session = n4j.driver.session();
  try {
    return await readGraphMeta(session, ws);
  } finally {
    await session.close();
  }
}

const plain = (v: unknown): unknown =>
  neo4j.isInt(v) ? (v as { toNumber(): number }).toNumber() : Array.isArray(v) ? v.map(plain) : v;
const props = (p: Record<string, unknown>) =>
  JSON.stringify(
    Object.fromEntries(
      Object.entries(p)
        .map(([k, v]) => [k, plain(v)] as const)
        .sort(),
    ),
  );

/** The workspace's current graph as sorted lines: each node (labels, properties) and each edge (type, ends, properties). */
async function drawn(ws: string): Promise<string[]> {
  const m = await meta(ws);
  if (!m) throw new Error("no graph");
  const S = scopeLabel(ws, m.slot);
  const nodes = await n4j.driver.executeQuery(`MATCH (n:${S}) RETURN labels(n) AS labels, properties(n) AS p`);
  const edges = await n4j.driver.executeQuery(
    `MATCH (a:${S})-[r]->(b:${S}) RETURN type(r) AS type, a.id AS s, b.id AS t, properties(r) AS p`,
  );
  return [
    ...nodes.records.map(
      (r) =>
        `node ${(r.get("labels") as string[])
          .filter((l) => l !== S)
          .sort()
          .join(":")} ${props(r.get("p"))}`,
    ),
    ...edges.records.map((r) => `edge ${r.get("s")} -${r.get("type")}-> ${r.get("t")} ${props(r.get("p"))}`),
  ].sort();
}

/** The graph a full rebuild draws of the model as it is now (written to the other slot, which becomes current). */
async function rebuilt(ws: string): Promise<string[]> {
  const source = await readGraphSource(db, ws);
  await writeGraph(n4j.driver, ws, graphRows(source), { revision: source.revision, graceMs: 0 });
  return drawn(ws);
}

describe("the graph keeps itself current from the change log", () => {
  test("every kind of change is applied as a full rebuild would draw it, each group once, in order", async () => {
    const doc = generateModel({ elements: 120, views: 3, seed: 26 });
    const { orgId, workspaceId: ws } = await seedWorkspace(db, doc);
    const ctx = contextFor(db, orgId, ws);

    // Never built: the first sync builds it in full, at the model's revision.
    const first = await syncWorkspace(options(), ws);
    expect(first).toMatchObject({ kind: "built", reason: "first" });
    expect(await syncWorkspace(options(), ws)).toMatchObject({ kind: "current" });

    const sync = async () => {
      const outcome = await syncWorkspace(options(), ws);
      expect(outcome.kind).toBe("applied");
      return outcome;
    };
    const [a, b] = doc.elements.filter((e) => e.type === "ApplicationComponent");
    const node = doc.elements.find((e) => e.type === "Node")!;
    await createPropertyDefinition({ ctx, input: { name: "Criticality" } });
    const mainframe = await createElement({
      ctx,
      input: { name: "Mainframe", type: "Node", properties: { Criticality: "High" } },
    });
    await updateElement({ ctx, input: { id: a!.id, name: "Claims system (renamed)" } });
    const applied = await sync();
    expect(applied).toMatchObject({ groups: 3 });
    const serving = await createRelationship({
      ctx,
      input: { type: "Serving", source: mainframe.id, target: a!.id, name: "hosts" },
    });
    // A relationship whose end is a relationship: the serving relationship becomes a (:Relationship) node.
    const note = await createElement({ ctx, input: { name: "Hosting contract", type: "Contract" } });
    const association = await createRelationship({
      ctx,
      input: { type: "Association", source: note.id, target: serving.id },
    });
    await updateElement({ ctx, input: { id: mainframe.id, type: "Device" } });
    await sync();
    expect(await drawn(ws)).toEqual(await rebuilt(ws));

    // Renaming a definition renames the key on every owner; reconnecting moves the edge; views gain and lose nodes.
    await updatePropertyDefinition({
      ctx,
      input: { id: (await defId(ws, "Criticality"))!, name: "Business criticality" },
    });
    await updateRelationship({ ctx, input: { id: serving.id, source: node.id } });
    const view = await createView({ ctx, input: { name: "Hosting" } });
    const shown = await createNode({ ctx, input: { view_id: view.id, element_id: mainframe.id, x: 10, y: 10 } });
    await createNode({ ctx, input: { view_id: view.id, element_id: b!.id, x: 200, y: 10 } });
    await sync();
    expect(await drawn(ws)).toEqual(await rebuilt(ws));

    await deleteNode({ ctx, input: { view_id: view.id, id: shown.id } });
    await deleteRelationship({ ctx, input: { id: association.id } });
    await deleteElement({ ctx, input: { id: b!.id } });
    await deleteView({ ctx, input: { id: doc.views[0]!.id } });
    await sync();
    const now = await drawn(ws);
    expect(now).toEqual(await rebuilt(ws));
    // Nothing twice: every model id is on one node at most.
    const S = scopeLabel(ws, (await meta(ws))!.slot);
    const dupes = await n4j.driver.executeQuery(
      `MATCH (n:${S}) WITH n.id AS id, count(*) AS c WHERE c > 1 RETURN count(id) AS dupes`,
    );
    expect(Number(dupes.records[0]!.get("dupes"))).toBe(0);
    expect(now.some((l) => l.includes('"name":"Mainframe"') && l.includes('"Business criticality":"High"'))).toBe(true);
  }, 120_000);

  test("the revision moves compare-and-set: a sync that lost the race writes nothing, the next one finds it current", async () => {
    const { orgId, workspaceId: ws } = await seedWorkspace(db, generateModel({ elements: 30, views: 1, seed: 3 }));
    const ctx = contextFor(db, orgId, ws);
    await syncWorkspace(options(), ws);
    for (let i = 0; i < 5; i++) await createElement({ ctx, input: { name: `Race ${i}`, type: "BusinessActor" } });
    const outcomes = await Promise.all([syncWorkspace(options(), ws), syncWorkspace(options(), ws)]);
    expect(outcomes.map((o) => o.kind).sort()).toEqual(["applied", "current"]);
    const S = scopeLabel(ws, (await meta(ws))!.slot);
    const count = await n4j.driver.executeQuery(
      `MATCH (n:${S}) WHERE n.name STARTS WITH 'Race ' RETURN count(n) AS c, count(DISTINCT n.id) AS d`,
    );
    expect(Number(count.records[0]!.get("c"))).toBe(5);
    expect(Number(count.records[0]!.get("d"))).toBe(5);
  }, 60_000);

  test("an import that replaces the model is rebuilt in full when that is faster than applying it", async () => {
    const { orgId, workspaceId: ws } = await seedWorkspace(db, generateModel({ elements: 30, views: 1, seed: 4 }));
    const ctx = contextFor(db, orgId, ws);
    await syncWorkspace(options(), ws);
    const before = (await meta(ws))!;
    const xml = await import("@ams/model").then((m) => m.demoModelXml());
    await importModel({ ctx, input: { xml } });
    const outcome = await syncWorkspace(options({ rebuildAbove: 200 }), ws);
    expect(outcome).toMatchObject({ kind: "built", reason: "faster" });
    const after = (await meta(ws))!;
    expect(after.generation).toBe(before.generation + 1);
    expect(await drawn(ws)).toEqual(await rebuilt(ws));
  }, 60_000);

  test("an import that changes a few objects of the model is applied like any change, not rebuilt", async () => {
    const { orgId, workspaceId: ws } = await seedWorkspace(db, generateModel({ elements: 300, views: 2, seed: 6 }));
    const ctx = contextFor(db, orgId, ws);
    await syncWorkspace(options(), ws);
    const before = (await meta(ws))!;
    const { xml } = await exportModel({ ctx });
    const renamed = xml.replace(/(<element identifier="[^"]+"[^>]*>\s*<name[^>]*>)[^<]*/, "$1Renamed by import");
    expect(renamed).not.toBe(xml);
    const result = await importModel({ ctx, input: { xml: renamed, fileName: "round-trip.xml" } });
    expect(result).toMatchObject({ added: 0, changed: 1, removed: 0 });
    const outcome = await syncWorkspace(options({ rebuildAbove: 200 }), ws);
    expect(outcome).toMatchObject({ kind: "applied", groups: 1, entries: 1 });
    expect((await meta(ws))!.generation).toBe(before.generation);
    expect(await drawn(ws)).toEqual(await rebuilt(ws));
  }, 60_000);

  test("a graph built before graphs recorded their revision is rebuilt once, then kept current", async () => {
    const { orgId, workspaceId: ws } = await seedWorkspace(db, generateModel({ elements: 20, views: 1, seed: 5 }));
    const source = await readGraphSource(db, ws);
    await writeGraph(n4j.driver, ws, graphRows(source), { graceMs: 0 });
    expect((await meta(ws))!.revision).toBeNull();
    expect(await syncWorkspace(options(), ws)).toMatchObject({ kind: "built", reason: "no revision" });
    await createElement({ ctx: contextFor(db, orgId, ws), input: { name: "After", type: "BusinessRole" } });
    expect(await syncWorkspace(options(), ws)).toMatchObject({ kind: "applied", groups: 1 });
  }, 60_000);
});

async function defId(ws: string, name: string) {
  const rows = await db.rows<{ id: string }>(
    (await import("@ams/db")).sql`select id from property_definitions where workspace_id = ${ws} and name = ${name}`,
  );
  return rows[0]?.id;
}
