import type { DbOrTx } from "@ams/db";
import { sql } from "drizzle-orm";
import { type RequestContext, requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { buildDiff, type Touched } from "./diff-build.ts";
import { type Point, resolvePoint } from "./points.ts";
import type { DiffQuery, ModelDiff } from "./schemas.ts";
import { asRow, currentRows, type Kind, type Row } from "./tables.ts";

/**
 * The states at two revisions of every object touched between them, read from the log alone: at the lower revision
 * the `before` of the object's first entry after it; at the higher one the `before` of its first entry after that,
 * else the current row. Nothing else of the model is loaded, so the cost follows the changes, not the model's size
 * (and it holds where retention kept only what versions need).
 */
export async function touchedBetween(
  ctx: RequestContext,
  ws: string,
  lo: number,
  hi: number,
  on?: DbOrTx,
): Promise<Touched[]> {
  // One ordered pass over the entries between the two revisions gives each object touched and its first entry
  // (`before`: its state at lo); a second, over the entries after hi of those objects only, their state at hi.
  // Set-based: two correlated lookups per object cost ~0.1 ms each, seconds for a whole model's import.
  const rows = await ctx.database.rows<{ kind: Kind; object_id: string; at_lo: unknown; at_hi: unknown }>(
    // An object whose last entry up to hi deleted it is absent at hi; any other exists at hi, so its next entry is
    // not a creation: saying so lets the lookup after hi use the object index (migration 0033 leaves the creations
    // of owned objects out of it) instead of reading every entry after hi.
    sql`with t as (
          select distinct on (kind, object_id) kind, object_id, before as at_lo,
            last_value(op) over (partition by kind, object_id order by revision, seq
                                 rows between unbounded preceding and unbounded following) = 'delete' as gone
          from change_entries
          where workspace_id = ${ws} and revision > ${lo} and revision <= ${hi}
          order by kind, object_id, revision, seq),
        h as (
          select distinct on (e.kind, e.object_id) e.kind, e.object_id, jsonb_build_array(e.before) as at_hi
          from change_entries e join t on t.kind = e.kind and t.object_id = e.object_id and not t.gone
          where e.workspace_id = ${ws} and e.revision > ${hi} and e.op <> 'create'
          order by e.kind, e.object_id, e.revision, e.seq)
        select t.kind, t.object_id, t.at_lo, case when t.gone then jsonb_build_array(null::jsonb) else h.at_hi end as at_hi
        from t left join h on h.kind = t.kind and h.object_id = t.object_id`,
    on,
  );
  const out: (Touched & { current: boolean })[] = [];
  const needCurrent = new Map<Kind, string[]>();
  for (const r of rows) {
    const later = asRow(r.at_hi) as unknown as unknown[] | null;
    const t = {
      kind: r.kind,
      objectId: r.object_id,
      lo: asRow(r.at_lo),
      hi: later ? asRow(later[0]) : null,
      current: !later,
    };
    if (!later) {
      const ids = needCurrent.get(r.kind);
      if (ids) ids.push(r.object_id);
      else needCurrent.set(r.kind, [r.object_id]);
    }
    out.push(t);
  }
  const current = new Map<string, Row>();
  for (const [kind, ids] of needCurrent) {
    for (const [id, row] of await currentRows(ctx.database, ws, kind, ids, on)) current.set(`${kind}:${id}`, row);
  }
  for (const t of out) {
    if (t.current) t.hi = current.get(`${t.kind}:${t.objectId}`) ?? null;
  }
  return out;
}

/**
 * GET /api/workspaces/:id/diff: what differs between two points of the workspace's history. The points are resolved
 * and the log read in one snapshot, so a retention compaction committing meanwhile is seen wholly or not at all.
 */
export async function diffRevisions({ ctx, input }: Verb<DiffQuery>): Promise<ModelDiff> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  return ctx.database.db.transaction(
    async (tx) => {
      const from = await resolvePoint(ctx, ws, "from", input.from, { allowCurrent: true }, tx);
      const to = await resolvePoint(ctx, ws, "to", input.to ?? "current", { allowCurrent: true }, tx);
      return diffPoints(ctx, ws, from, to, tx);
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

export async function diffPoints(
  ctx: RequestContext,
  ws: string,
  from: Point,
  to: Point,
  on?: DbOrTx,
): Promise<ModelDiff> {
  const lo = Math.min(from.revision, to.revision);
  const hi = Math.max(from.revision, to.revision);
  const touched = await touchedBetween(ctx, ws, lo, hi, on);
  // Oriented from `from` to `to` (a later `from` compares backwards).
  const oriented = from.revision <= to.revision ? touched : touched.map((t) => ({ ...t, lo: t.hi, hi: t.lo }));
  const names = await currentNames(ctx, ws, oriented, on);
  return { from, to, ...buildDiff(oriented, names) };
}

/** Names of the elements, views and property definitions the diff refers to without having touched them. */
async function currentNames(ctx: RequestContext, ws: string, touched: Touched[], on?: DbOrTx) {
  const ids = new Set<string>();
  for (const t of touched) {
    const row = t.hi ?? t.lo;
    if (!row) continue;
    if (t.kind === "node") {
      if (row.element_id) ids.add(String(row.element_id));
      ids.add(String(row.view_id));
    }
    if (t.kind === "connection") ids.add(String(row.view_id));
    if (t.kind === "property_value") ids.add(String(row.definition_id));
  }
  const list = JSON.stringify([...ids]);
  const rows = await ctx.database.rows<{ id: string; name: string }>(
    sql`select id, name from elements where workspace_id = ${ws} and id in (select json_array_elements_text(${list}::json))
        union all select id, name from views where workspace_id = ${ws} and id in (select json_array_elements_text(${list}::json))
        union all select id, name from property_definitions
          where workspace_id = ${ws} and id in (select json_array_elements_text(${list}::json))`,
    on,
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}
