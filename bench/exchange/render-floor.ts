import { type Database, type DbOrTx, openDatabase, sql } from "@ams/db";
import { loadRenderInput, type RequestContext } from "@ams/model";
import type postgres from "postgres";

/** What rendering a view reads, and the same SELECTs run bare: the rendering floor. */
export function contextFor(database: Database, organizationId: string, workspaceId: string): RequestContext {
  return {
    database,
    userId: "bench",
    username: "bench",
    organizationId,
    workspaceId,
    role: "owner",
    platformAdmin: false,
  };
}

/**
 * What one render reads from each model table, in the steady state of a server connection: its statements are
 * prepared and have been run before (PostgreSQL then settles on one plan per statement). Counted as the difference of
 * pg_stat_xact_user_tables around the render, inside one transaction: PostgreSQL 15 keeps a backend's counters
 * pending across transactions, so the absolute values would include earlier renders.
 */
export async function rowsReadByRender(url: string, ws: string, viewId: string) {
  const own = await openDatabase({ url, migrate: false, maxConnections: 1 });
  type Stat = { relname: string; seq_scan: number; tuples: number };
  const stats = (tx: DbOrTx) =>
    own.rows<Stat>(
      sql`select relname, seq_scan::int as seq_scan, (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::int as tuples
          from pg_stat_xact_user_tables where relname in ('views', 'view_nodes', 'connections', 'elements', 'relationships', 'property_values')`,
      tx,
    );
  try {
    for (let i = 0; i < 10; i++) await loadRenderInput(own, ws, viewId);
    return await own.db.transaction(async (tx) => {
      const before = new Map((await stats(tx)).map((s) => [s.relname, s]));
      await loadRenderInput(own, ws, viewId, tx);
      const delta = (await stats(tx)).map((s) => ({
        relname: s.relname,
        seq_scan: s.seq_scan - (before.get(s.relname)?.seq_scan ?? 0),
        tuples: s.tuples - (before.get(s.relname)?.tuples ?? 0),
      }));
      return {
        seqScans: delta.reduce((n, s) => n + s.seq_scan, 0),
        tuples: delta.reduce((n, s) => n + s.tuples, 0),
        byTable: Object.fromEntries(delta.filter((s) => s.tuples > 0).map((s) => [s.relname, s.tuples])),
      };
    });
  } finally {
    await own.close();
  }
}

/** The three statements loadRenderInput runs, bare on postgres.js, results untouched: the rendering floor. */
export function bareRenderSelects(pg: postgres.Sql, ws: string, viewId: string) {
  return () =>
    Promise.all([
      pg`select id, name, viewpoint, documentation from views where workspace_id = ${ws} and id = ${viewId}`,
      pg`select n.id, n.kind, n.x, n.y, n.w, n.h, n.parent_id as "parentId", n.label, n.style,
            e.type as etype, e.name as ename, pv.value as icon
          from view_nodes n
          left join lateral (select type, name from elements e where e.workspace_id = n.workspace_id
            and e.id = n.element_id limit 1) e on true
          left join lateral (select value from property_values v where v.workspace_id = n.workspace_id
            and v.owner_kind = 'element' and v.owner_id = n.element_id and v.definition_id = 'ams-plugin-iconpack'
            order by v.ord limit 1) pv on true
          where n.workspace_id = ${ws} and n.view_id = ${viewId} order by n.ord`,
      pg`select c.id, c.kind, c.source_id as "sourceId", c.target_id as "targetId", c.bendpoints, c.label, c.style,
            r.type as rtype, r.name as rname, r.access_type as access, r.is_directed as directed, r.influence_strength as strength
          from connections c
          left join lateral (select type, name, access_type, is_directed, influence_strength from relationships r
            where r.workspace_id = c.workspace_id and r.id = c.relationship_id limit 1) r on true
          where c.workspace_id = ${ws} and c.view_id = ${viewId} order by c.ord`,
    ]);
}
