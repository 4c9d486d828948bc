import type { GraphCounts } from "@ams/db";
import { otherSlot, quoteName, readGraphMeta, type Slot, scopeLabel } from "@ams/model";
import { AppError } from "@ams/shared";
import neo4j, { type Driver } from "neo4j-driver";
import type { EdgeRow, GraphRows, NodeRow } from "./graph-rows.ts";

export type WriteOptions = {
  /** Rows per write transaction (default 20 000). */
  batchSize?: number;
  /** How long readers may still be on the previous slot after a switch (default 11 s: the query timeout + 1 s). */
  graceMs?: number;
  database?: string;
  /** Called after every batch: the worker heartbeats its job from here. */
  onProgress?: () => void | Promise<void>;
  /** The model revision the rows were read at (readGraphSource): the graph records it, the sync goes on from it. */
  revision?: number;
};

export type WriteResult = {
  generation: number;
  slot: Slot;
  previousSlot: Slot | null;
  counts: GraphCounts;
  skipped: number;
};

/**
 * Writes a complete new generation of the workspace's graph into the slot not in use, then switches the
 * (:GraphMeta) pointer in one transaction (compare-and-set on the generation, so two writers cannot both switch).
 * The slot written is emptied first: it holds the generation before the current one, or a half-written one of a
 * crashed job. Nothing a reader can see changes before the switch.
 */
export async function writeGraph(
  driver: Driver,
  workspaceId: string,
  rows: GraphRows,
  opts: WriteOptions = {},
): Promise<WriteResult> {
  const batchSize = opts.batchSize ?? 20_000;
  const graceMs = opts.graceMs ?? 11_000;
  // Fails fast when Neo4j is down (the managed transactions below would retry for half a minute).
  await driver.verifyConnectivity({ database: opts.database });
  const session = driver.session({ database: opts.database, defaultAccessMode: neo4j.session.WRITE });
  try {
    const meta = await session.executeRead((tx) => readGraphMeta(tx, workspaceId));
    const slot: Slot = meta ? otherSlot(meta.slot) : "A";
    if (meta?.previousSlot === slot) {
      const wait = meta.switchedAt + graceMs - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, Math.min(wait, graceMs)));
    }
    const label = scopeLabel(workspaceId, slot);
    await clearLabel(driver, label, { database: opts.database, onProgress: opts.onProgress });

    // One query text for every workspace and type (labels and types are dynamic), so Neo4j plans it once.
    const nodes: { id: string; labels: string[]; props: NodeRow["props"] }[] = [];
    for (const [type, list] of rows.elements)
      for (const r of list) nodes.push({ id: r.id, labels: ["Element", type, label], props: r.props });
    for (const r of rows.reified) nodes.push({ id: r.id, labels: ["Relationship", label], props: r.props });
    for (const r of rows.views) nodes.push({ id: r.id, labels: ["View", label], props: r.props });
    // New nodes take no locks that other new nodes need: two writers use both cores of a small server.
    // How far the build has come, for readers of a graph not built yet ("building the graph (42%)").
    const edgeCount =
      rows.contains.length +
      rows.sources.length +
      rows.targets.length +
      [...rows.relationships.values()].reduce((n, l) => n + l.length, 0);
    const total = nodes.length + edgeCount;
    let done = 0;
    const progress = async (written: number) => {
      done += written;
      await driver.executeQuery(
        "MERGE (b:GraphBuild {workspace_id: $ws}) SET b.done = $done, b.total = $total, b.at = timestamp()",
        { ws: workspaceId, done: neo4j.int(done), total: neo4j.int(total) },
        { database: opts.database },
      );
      await opts.onProgress?.();
    };
    await progress(0);
    const ids = new Map<string, string>();
    await inParallel(Math.ceil(nodes.length / batchSize), 2, async (b) => {
      const batch = nodes.slice(b * batchSize, (b + 1) * batchSize);
      const writer = driver.session({ database: opts.database, defaultAccessMode: neo4j.session.WRITE });
      try {
        const created = await writer.executeWrite(async (tx) => {
          const res = await tx.run(CREATE_NODES, { rows: batch });
          return res.records.map((r) => [r.get("id") as string, r.get("eid") as string] as const);
        });
        for (const [id, eid] of created) ids.set(id, eid);
      } finally {
        await writer.close();
      }
      await progress(batch.length);
    });

    let skipped = 0;
    const examples: string[] = [];
    const edges: { s: string; t: string; type: string; props: EdgeRow["props"] }[] = [];
    const resolve = (type: string, list: EdgeRow[]) => {
      let n = 0;
      for (const r of list) {
        const s = ids.get(r.s);
        const t = ids.get(r.t);
        if (s && t) {
          edges.push({ s, t, type, props: r.props });
          n++;
        } else {
          skipped++;
          if (examples.length < 20)
            examples.push(`${type} ${r.s} -> ${r.t}: ${s ? "target" : "source"} not in the model`);
        }
      }
      return n;
    };
    let relationships = 0;
    for (const [type, list] of rows.relationships) relationships += resolve(type, list);
    const contains = resolve("CONTAINS", rows.contains);
    resolve("SOURCE", rows.sources);
    resolve("TARGET", rows.targets);
    for (let i = 0; i < edges.length; i += batchSize) {
      const batch = edges.slice(i, i + batchSize);
      await session.executeWrite((tx) => tx.run(CREATE_EDGES, { rows: batch }));
      await progress(batch.length);
    }

    const expected = meta?.generation ?? 0;
    const switched = await session.executeWrite(async (tx) => {
      const res = await tx.run(
        `MERGE (m:GraphMeta {workspace_id: $ws})
         WITH m WHERE coalesce(m.generation, 0) = $expected
         SET m.previous_slot = m.slot, m.slot = $slot, m.generation = $expected + 1, m.switched_at = timestamp(),
           m.revision = $revision
         RETURN m.generation AS generation`,
        {
          ws: workspaceId,
          expected: neo4j.int(expected),
          slot,
          revision: opts.revision === undefined ? null : neo4j.int(opts.revision),
        },
      );
      return res.records[0] ? Number(res.records[0].get("generation")) : null;
    });
    if (switched === null) throw new AppError("CONFLICT", "another rebuild of this workspace switched the graph first");
    let elements = 0;
    for (const list of rows.elements.values()) elements += list.length;
    return {
      generation: switched,
      slot,
      previousSlot: meta?.slot ?? null,
      skipped,
      counts: {
        elements,
        relationships,
        views: rows.views.length,
        reified: rows.reified.length,
        contains,
        ...(skipped > 0 ? { inconsistent: { count: skipped, examples } } : {}),
      },
    };
  } finally {
    await session.close();
  }
}

const CREATE_NODES =
  "UNWIND $rows AS row CREATE (n:$(row.labels)) SET n = row.props RETURN row.id AS id, elementId(n) AS eid";
const CREATE_EDGES =
  "UNWIND $rows AS row MATCH (a) WHERE elementId(a) = row.s MATCH (b) WHERE elementId(b) = row.t CREATE (a)-[r:$(row.type)]->(b) SET r = row.props";

/** Runs task(0..count-1) with at most `width` at a time; the first failure stops new tasks and is thrown. */
async function inParallel(count: number, width: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < count) {
      const i = next++;
      try {
        await task(i);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, lane));
}

/** Deletes every node of a label (and their relationships) in batches, one transaction each. */
export async function clearLabel(
  driver: Driver,
  label: string,
  opts: { database?: string; batchSize?: number; onProgress?: () => void | Promise<void> } = {},
): Promise<number> {
  const session = driver.session({ database: opts.database, defaultAccessMode: neo4j.session.WRITE });
  let total = 0;
  try {
    for (;;) {
      const deleted = await session.executeWrite(async (tx) => {
        const res = await tx.run(
          `MATCH (n:${quoteName(label)}) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS c`,
          {
            batch: neo4j.int(opts.batchSize ?? 5000),
          },
        );
        return Number(res.records[0]?.get("c") ?? 0);
      });
      total += deleted;
      if (deleted === 0) return total;
      await opts.onProgress?.();
    }
  } finally {
    await session.close();
  }
}

/** Empties the slot a switch left behind, unless it became current again meanwhile. */
export async function retireSlot(driver: Driver, workspaceId: string, slot: Slot, database?: string): Promise<number> {
  const session = driver.session({ database, defaultAccessMode: neo4j.session.READ });
  try {
    const meta = await session.executeRead((tx) => readGraphMeta(tx, workspaceId));
    if (meta?.slot === slot) return 0;
  } finally {
    await session.close();
  }
  return clearLabel(driver, scopeLabel(workspaceId, slot), { database });
}
