import { type Database, type DbOrTx, sql } from "@ams/db";
import { quoteName, readGraphMeta, scopeLabel } from "@ams/model";
import neo4j, { type Driver } from "neo4j-driver";
import { type GraphSource, graphRows } from "./graph-rows.ts";
import { readGraphSource } from "./read-source.ts";
import { type WriteResult, writeGraph } from "./write-graph.ts";

export type SyncOptions = {
  database: Database;
  neo4j: Driver;
  neo4jDatabase?: string;
  /** Change entries waiting beyond which a full rebuild is faster than applying them (default 20 000). */
  rebuildAbove?: number;
  /** For a full build: rows per write transaction and the previous slot's grace (see writeGraph). */
  batchSize?: number;
  graceMs?: number;
  /** Hears each full build (the worker schedules the retirement of the slot it left). */
  onRebuilt?: (result: WriteResult) => void;
};

export type SyncOutcome =
  /** The graph already shows the model's latest revision. */
  | { kind: "current"; revision: number }
  /** The change groups after `from` up to `to` were applied in one Neo4j transaction. */
  | { kind: "applied"; from: number; to: number; groups: number; entries: number }
  /** Built in full: never built, built before it recorded a revision, too much to apply, or the log lacks groups. */
  | { kind: "built"; revision: number; reason: "first" | "no revision" | "faster" | "log trimmed" }
  /** The workspace no longer exists. */
  | { kind: "gone" };

/**
 * Brings one workspace's graph up to the model's latest revision, reading the change log: the groups after the
 * revision the graph records (on its (:GraphMeta) node) are applied in one Neo4j transaction that also moves that
 * revision, compare-and-set, so a crash or a lost connection applies nothing and the next run starts again from the
 * same revision (resumable), and two runs can never both apply a group (idempotent). A graph never built, one built
 * before it recorded a revision, a backlog larger than `rebuildAbove` entries (an import that replaced the model),
 * or a log that no longer has the groups in between is built in full instead.
 */
export async function syncWorkspace(opts: SyncOptions, workspaceId: string): Promise<SyncOutcome> {
  const rebuildAbove = opts.rebuildAbove ?? 20_000;
  const known = knownMeta(opts.neo4j);
  // A rebuild that switched the graph in between makes the compare-and-set fail: read the pointer again.
  for (let attempt = 0; ; attempt++) {
    // The pointer this process last moved saves a round trip to Neo4j; the compare-and-set checks it anyway.
    const cached = attempt === 0 ? known.get(workspaceId) : undefined;
    known.delete(workspaceId);
    const current = cached ?? (await readMetaOnce(opts.neo4j, workspaceId, opts.neo4jDatabase));
    if (!current) return build(opts, workspaceId, "first");
    if (current.revision === null) return build(opts, workspaceId, "no revision");
    const plan = await planSync(opts.database, workspaceId, current.revision, rebuildAbove);
    if (plan.kind === "gone") return plan;
    // "Current" by a remembered pointer is read again from Neo4j (the graph may have been dropped since).
    if (plan.kind === "current") {
      if (cached) continue;
      known.set(workspaceId, current);
      return plan;
    }
    if (plan.kind === "rebuild") return build(opts, workspaceId, plan.reason);
    const applied = await applyChange(opts, workspaceId, current.generation, current.slot, plan);
    if (applied) {
      known.set(workspaceId, { ...current, revision: plan.to });
      return { kind: "applied", from: plan.from, to: plan.to, groups: plan.groups, entries: plan.entries };
    }
    if (attempt >= 4) throw new Error(`the graph of ${workspaceId} kept moving under the sync; it runs again`);
  }
}

type KnownMeta = { generation: number; slot: "A" | "B"; revision: number | null };
const knownByDriver = new WeakMap<Driver, Map<string, KnownMeta>>();
/** The graph pointers this process last read or moved, per Neo4j driver (forgotten on a build). */
function knownMeta(driver: Driver): Map<string, KnownMeta> {
  let known = knownByDriver.get(driver);
  if (!known) {
    known = new Map();
    knownByDriver.set(driver, known);
  }
  if (known.size > 10_000) known.clear();
  return known;
}

async function readMetaOnce(driver: Driver, workspaceId: string, database?: string) {
  const session = driver.session({ database, defaultAccessMode: neo4j.session.READ });
  try {
    return await readGraphMeta(session, workspaceId);
  } finally {
    await session.close();
  }
}

async function build(
  opts: SyncOptions,
  workspaceId: string,
  reason: Extract<SyncOutcome, { kind: "built" }>["reason"],
): Promise<SyncOutcome> {
  knownMeta(opts.neo4j).delete(workspaceId);
  const source = await readGraphSource(opts.database, workspaceId);
  const result = await writeGraph(opts.neo4j, workspaceId, graphRows(source), {
    revision: source.revision,
    batchSize: opts.batchSize,
    graceMs: opts.graceMs,
    database: opts.neo4jDatabase,
  });
  opts.onRebuilt?.(result);
  return { kind: "built", revision: source.revision, reason };
}

type Row = Record<string, unknown>;
const asRow = (v: unknown): Row | null =>
  v === null || v === undefined ? null : ((typeof v === "string" ? JSON.parse(v) : v) as Row);

/** What one sync writes: the objects the log names, as they are at `to`, and where their edges were at `from`. */
type Change = {
  from: number;
  to: number;
  groups: number;
  entries: number;
  /** The current rows of the objects touched (graphRows of them). */
  source: GraphSource;
  /** Touched objects the model no longer has. */
  deletedElements: string[];
  deletedViews: string[];
  /** Every relationship rewritten, and its source at `from` (where its edge is in the graph now), if it had one. */
  relationships: string[];
  oldEdges: { id: string; s: string }[];
  /** (view, element) pairs whose CONTAINS edge is decided again. */
  pairs: { v: string; e: string }[];
};

type Plan =
  | { kind: "gone" }
  | { kind: "current"; revision: number }
  | { kind: "rebuild"; reason: "faster" | "log trimmed" }
  | ({ kind: "apply" } & Change);

const GRAPH_KINDS = sql`('element', 'relationship', 'view', 'node', 'property_value', 'property_definition')`;
const idList = (ids: Iterable<string>) => sql`(select json_array_elements_text(${JSON.stringify([...ids])}::json))`;

/**
 * Reads, in one snapshot, the groups after `from` (the graph's revision) up to the model's latest, their entries,
 * and the current rows of every object they name. The graph shows the model at `from`, so an object's state there is
 * the `before` of its first entry after it, or its current row when no entry names it.
 */
async function planSync(database: Database, ws: string, from: number, rebuildAbove: number): Promise<Plan> {
  return database.db.transaction(
    async (tx): Promise<Plan> => {
      const q = <T>(query: ReturnType<typeof sql>) => database.rows<T>(query, tx);
      // The model's revision, the groups after `from` and their entries in one statement (the entries only when
      // they will be applied: the log reaches back to `from` and they are not more than a rebuild would cost).
      type Entry = { kind: string; object_id: string; before: unknown; after: unknown };
      const [head] = await q<{
        revision: string | number;
        compacted: string | number;
        n: number;
        entries: number;
        list: Entry[] | string | null;
      }>(
        sql`select w.revision, w.history_compacted_through as compacted, g.n, g.entries,
              (select json_agg(json_build_object('kind', e.kind, 'object_id', e.object_id, 'before', e.before,
                  -- The state after, read as every reader of the log reads it (migration 0031: entries store
                  -- the row before only); only property values and nodes need it here (their owner, their pair).
                  'after', case when e.kind in ('property_value', 'node') then ams_entry_after(e.workspace_id,
                    e.revision, e.seq, e.kind, e.object_id, e.op, e.after) end) order by e.revision, e.seq)
                from change_entries e
                where e.workspace_id = w.id and e.revision > ${from} and e.revision <= w.revision
                  and e.kind in ${GRAPH_KINDS} and w.history_compacted_through <= ${from}
                  and g.entries <= ${rebuildAbove}) as list
            from workspaces w
            cross join lateral (select count(*)::int as n, coalesce(sum(entry_count), 0)::int as entries
              from change_groups where workspace_id = w.id and revision > ${from} and revision <= w.revision) g
            where w.id = ${ws}`,
      );
      if (!head) return { kind: "gone" };
      const to = Number(head.revision);
      if (to <= from) return { kind: "current", revision: from };
      // Entries older than the history retention keep no detail (history/compact.ts): the log cannot replay them.
      if (Number(head.compacted) > from) return { kind: "rebuild", reason: "log trimmed" };
      const groups = { n: head.n, entries: head.entries };
      if (groups.n < to - from) return { kind: "rebuild", reason: "log trimmed" };
      if (groups.entries > rebuildAbove) return { kind: "rebuild", reason: "faster" };
      const entries: Entry[] = typeof head.list === "string" ? JSON.parse(head.list) : (head.list ?? []);
      const change = await touched(database, tx, ws, entries);
      return { kind: "apply", from, to, groups: groups.n, entries: entries.length, ...change };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

async function touched(
  database: Database,
  tx: DbOrTx,
  ws: string,
  entries: { kind: string; object_id: string; before: unknown; after: unknown }[],
): Promise<Omit<Change, "from" | "to" | "groups" | "entries">> {
  const q = <T>(query: ReturnType<typeof sql>) => database.rows<T>(query, tx);
  const elements = new Set<string>();
  const relationships = new Set<string>();
  const views = new Set<string>();
  const definitions = new Set<string>();
  const pairs = new Map<string, { v: string; e: string }>();
  /** A relationship's row at `from` (null: it did not exist), for those the log names. */
  const relAtFrom = new Map<string, Row | null>();
  const owner = (row: Row | null) => {
    const id = row?.owner_id as string | undefined;
    if (!id) return;
    if (row?.owner_kind === "element") elements.add(id);
    else if (row?.owner_kind === "relationship") relationships.add(id);
    else if (row?.owner_kind === "view") views.add(id);
  };
  for (const entry of entries) {
    const before = asRow(entry.before);
    const after = asRow(entry.after);
    if (entry.kind === "element") elements.add(entry.object_id);
    else if (entry.kind === "view") views.add(entry.object_id);
    else if (entry.kind === "relationship") {
      relationships.add(entry.object_id);
      if (!relAtFrom.has(entry.object_id)) relAtFrom.set(entry.object_id, before);
    } else if (entry.kind === "property_definition") definitions.add(entry.object_id);
    else if (entry.kind === "property_value") {
      owner(before);
      owner(after);
    } else if (entry.kind === "node") {
      for (const r of [before, after]) {
        if (r?.element_id) pairs.set(`${r.view_id}/${r.element_id}`, { v: String(r.view_id), e: String(r.element_id) });
      }
    }
  }
  // A definition renamed or retyped changes the key or the value of every property that uses it.
  if (definitions.size > 0) {
    const owners = await q<Row>(
      sql`select distinct owner_kind, owner_id from property_values
          where workspace_id = ${ws} and definition_id in ${idList(definitions)}`,
    );
    for (const o of owners) owner(o);
  }
  // A relationship that is the end of another is a (:Relationship) node: rewriting one rewrites the relationships
  // at either end of it too, until no more join (chains of relationships on relationships are short).
  let rels: GraphSource["relationships"] = [];
  for (let round = 0; round < 8 && relationships.size > 0; round++) {
    rels = await q<GraphSource["relationships"][number]>(
      sql`select id, type, source_id as "sourceId", target_id as "targetId", name, documentation,
            is_directed as "isDirected", access_type as "accessType", influence_strength as "influenceStrength"
          from relationships where workspace_id = ${ws} and id in ${idList(relationships)}`,
    );
    const ends = new Set<string>();
    for (const r of rels) ends.add(r.sourceId).add(r.targetId);
    for (const old of relAtFrom.values()) if (old) ends.add(String(old.source_id)).add(String(old.target_id));
    const more = await q<{ id: string }>(
      sql`select id from relationships where workspace_id = ${ws}
          and (id in ${idList(ends)} or source_id in ${idList(relationships)} or target_id in ${idList(relationships)})`,
    );
    const before = relationships.size;
    for (const m of more) relationships.add(m.id);
    if (relationships.size === before) break;
  }
  // Only the statements something asks for: a rename reads one element and its properties.
  const none = Promise.resolve([]);
  const viewIds = new Set([...pairs.values()].map((p) => p.v));
  const [elementRows, viewRows, nodeRows, properties] = await Promise.all([
    elements.size === 0
      ? none
      : q<GraphSource["elements"][number]>(
          sql`select id, type, name, documentation from elements where workspace_id = ${ws} and id in ${idList(elements)}`,
        ),
    views.size === 0
      ? none
      : q<GraphSource["views"][number]>(
          sql`select id, name, viewpoint, documentation from views where workspace_id = ${ws} and id in ${idList(views)}`,
        ),
    pairs.size === 0
      ? none
      : q<GraphSource["nodes"][number]>(
          sql`select distinct view_id as "viewId", element_id as "elementId" from view_nodes
              where workspace_id = ${ws} and view_id in ${idList(viewIds)}
                and view_id || '/' || element_id in ${idList(pairs.keys())}`,
        ),
    elements.size + relationships.size + views.size === 0
      ? none
      : q<GraphSource["properties"][number]>(
          sql`select owner_kind as "ownerKind", owner_id as "ownerId", definition_id as "definitionId", value
              from property_values where workspace_id = ${ws} and (
                (owner_kind = 'element' and owner_id in ${idList(elements)})
                or (owner_kind = 'relationship' and owner_id in ${idList(relationships)})
                or (owner_kind = 'view' and owner_id in ${idList(views)}))
              order by owner_kind, owner_id, ord`,
        ),
  ]);
  const definitionRows =
    properties.length === 0
      ? []
      : await q<GraphSource["propertyDefinitions"][number]>(
          sql`select id, name, type from property_definitions where workspace_id = ${ws}
              and id in ${idList(new Set(properties.map((p) => p.definitionId)))}`,
        );
  const byId = new Map(rels.map((r) => [r.id, r]));
  const oldEdges: Change["oldEdges"] = [];
  for (const id of relationships) {
    const old = relAtFrom.has(id) ? relAtFrom.get(id) : byId.get(id) ? { source_id: byId.get(id)?.sourceId } : null;
    if (old?.source_id) oldEdges.push({ id, s: String(old.source_id) });
  }
  const liveElements = new Set(elementRows.map((e) => e.id));
  const liveViews = new Set(viewRows.map((v) => v.id));
  return {
    source: {
      propertyDefinitions: definitionRows,
      elements: elementRows,
      relationships: rels,
      views: viewRows,
      nodes: nodeRows,
      properties,
    },
    deletedElements: [...elements].filter((id) => !liveElements.has(id)),
    deletedViews: [...views].filter((id) => !liveViews.has(id)),
    relationships: [...relationships],
    oldEdges,
    pairs: [...pairs.values()],
  };
}

/**
 * Writes one sync into the current slot as one Cypher statement (one round trip, atomic: an auto-commit
 * transaction) whose first clause moves the graph's revision from `from` to `to` (compare-and-set with the
 * generation) and whose later clauses, one subquery per kind of write, each UNWIND a list of rows: false when the
 * graph was not at `from` any more (another run applied it, or a rebuild switched), and nothing was written. Every
 * value is a parameter; the one name in the text is the slot label, made of the workspace id's hex digits.
 */
async function applyChange(
  opts: SyncOptions,
  workspaceId: string,
  generation: number,
  slot: "A" | "B",
  change: Change,
): Promise<boolean> {
  const S = quoteName(scopeLabel(workspaceId, slot));
  const { clauses, params } = changeClauses(S, graphRows(change.source), change);
  const session = opts.neo4j.session({ database: opts.neo4jDatabase, defaultAccessMode: neo4j.session.WRITE });
  try {
    // Not retried by the driver: when Neo4j is gone the worker retries the whole sync later.
    const result = await session.run(
      // The write lock first (SET), the check after it: a check before the lock would let two runs that read the
      // same revision both pass, one after the other.
      `MATCH (m:GraphMeta {workspace_id: $ws}) SET m.locked_at = timestamp()
       WITH m WHERE m.generation = $generation AND m.revision = $from AND m.slot = $slot
       SET m.revision = $to, m.synced_at = timestamp()
       WITH m
       ${clauses.join("\n")}
       RETURN m.revision AS revision`,
      {
        ...params,
        ws: workspaceId,
        generation: neo4j.int(generation),
        from: neo4j.int(change.from),
        to: neo4j.int(change.to),
        slot,
      },
    );
    return result.records.length > 0;
  } finally {
    await session.close();
  }
}

/** A node of the slot by model id: an element or a (:Relationship) node (both indexed by id). */
const endpoint = (S: string, v: string, id: string) =>
  `CALL { WITH row MATCH (${v}:Element {id: ${id}}) WHERE ${v}:${S} RETURN ${v}
          UNION WITH row MATCH (${v}:Relationship {id: ${id}}) WHERE ${v}:${S} RETURN ${v} }`;

/**
 * The subqueries of one sync, in order, each over its own list parameter ($p0, $p1 ...); lists that are empty add
 * nothing (a rename is one subquery).
 */
function changeClauses(S: string, rows: ReturnType<typeof graphRows>, change: Change) {
  const clauses: string[] = [];
  const params: Record<string, unknown> = {};
  const add = (body: string, list: unknown[], extra: Record<string, unknown> = {}) => {
    if (list.length === 0) return;
    const name = `p${clauses.length}`;
    params[name] = list;
    Object.assign(params, extra);
    clauses.push(`CALL { ${body.replaceAll("$rows", `$${name}`)} }`);
  };
  // Out with the old: the rewritten relationships' edges (found from their source at `from`) and nodes, the
  // CONTAINS edges decided again, the elements and views the model no longer has.
  add(
    `UNWIND $rows AS row ${endpoint(S, "a", "row.s")} MATCH (a)-[e]->() WHERE e.id = row.id DELETE e`,
    change.oldEdges,
  );
  add(`UNWIND $rows AS id MATCH (n:Relationship {id: id}) WHERE n:${S} DETACH DELETE n`, change.relationships);
  add(
    `UNWIND $rows AS row MATCH (v:View {id: row.v})-[c:CONTAINS]->(e:Element {id: row.e}) WHERE v:${S} AND e:${S} DELETE c`,
    change.pairs,
  );
  add(`UNWIND $rows AS id MATCH (n:Element {id: id}) WHERE n:${S} DETACH DELETE n`, change.deletedElements);
  add(`UNWIND $rows AS id MATCH (n:View {id: id}) WHERE n:${S} DETACH DELETE n`, change.deletedViews);
  // In with the new: elements and views updated in place (their other edges stay), with their type label.
  const elements = [...rows.elements].flatMap(([type, list]) => list.map((r) => ({ ...r, type })));
  add(
    `UNWIND $rows AS row MERGE (n:Element:${S} {id: row.id})
     WITH n, row, [l IN labels(n) WHERE l <> 'Element' AND l <> $scope AND l <> row.type] AS stale
     REMOVE n:$(stale) SET n:$(row.type) SET n = row.props`,
    elements,
    { scope: S.slice(1, -1) },
  );
  add(`UNWIND $rows AS row MERGE (n:View:${S} {id: row.id}) SET n = row.props`, rows.views);
  add(`UNWIND $rows AS row CREATE (n:Relationship:${S}) SET n = row.props`, rows.reified);
  const edges = [
    ...[...rows.relationships].flatMap(([type, list]) => list.map((r) => ({ ...r, type }))),
    ...rows.sources.map((r) => ({ ...r, type: "SOURCE" })),
    ...rows.targets.map((r) => ({ ...r, type: "TARGET" })),
  ];
  add(
    `UNWIND $rows AS row ${endpoint(S, "a", "row.s")} ${endpoint(S, "b", "row.t")}
     CREATE (a)-[r:$(row.type)]->(b) SET r = row.props`,
    edges,
  );
  add(
    `UNWIND $rows AS row MATCH (v:View {id: row.s}) WHERE v:${S} MATCH (e:Element {id: row.t}) WHERE e:${S}
     CREATE (v)-[:CONTAINS]->(e)`,
    rows.contains,
  );
  return { clauses, params };
}
