import { sql } from "drizzle-orm";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { loadDefinitions } from "../properties/definitions.ts";
import { typedValue } from "../properties/values.ts";
import type { TableData, TableQuery } from "./schemas.ts";

type Row = {
  id: string;
  type: string;
  name: string | null;
  documentation: string | null;
  revision: string | number;
  source?: string;
  target?: string;
  sn?: string | null;
  tn?: string | null;
};

/**
 * The table view's data: every element (or relationship) of the workspace with its property values, column by
 * column, in model order. Three set-based reads in one snapshot, whatever the model's size; filtering and sorting
 * happen in the browser, which holds the columns (see README "Table view").
 */
export async function readTable({ ctx, input }: Verb<Partial<TableQuery>>): Promise<TableData> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const kind = input?.kind ?? "elements";
  const { database } = ctx;
  return database.db.transaction(async (tx) => {
    // One snapshot for the four reads: the revision answered is the one the rows are at.
    await database.rows(sql`set transaction isolation level repeatable read, read only`, tx);
    const [head] = await database.rows<{ revision: string | number }>(
      sql`select revision from workspaces where id = ${ws}`,
      tx,
    );
    const rows =
      kind === "elements"
        ? await database.rows<Row>(
            sql`select id, type, name, documentation, revision from elements where workspace_id = ${ws} order by ord`,
            tx,
          )
        : await database.rows<Row>(
            sql`select r.id, r.type, r.name, r.documentation, r.revision, r.source_id as source, r.target_id as target,
                  coalesce(se.name, sr.name, '') as sn, coalesce(te.name, tr.name, '') as tn
                from relationships r
                left join elements se on se.workspace_id = r.workspace_id and se.id = r.source_id
                left join relationships sr on sr.workspace_id = r.workspace_id and sr.id = r.source_id
                left join elements te on te.workspace_id = r.workspace_id and te.id = r.target_id
                left join relationships tr on tr.workspace_id = r.workspace_id and tr.id = r.target_id
                where r.workspace_id = ${ws} order by r.ord`,
            tx,
          );
    const defs = await loadDefinitions(database, ws, tx);
    const values = await database.rows<{ o: string; d: string; v: string }>(
      sql`select owner_id as o, definition_id as d, value as v from property_values
          where workspace_id = ${ws} and owner_kind = ${kind === "elements" ? "element" : "relationship"}
          order by owner_id, ord`,
      tx,
    );
    const types: string[] = [];
    const typeIndex = new Map<string, number>();
    const rowOf = new Map<string, number>();
    const out: TableData = {
      kind,
      revision: Number(head?.revision ?? 0),
      count: rows.length,
      types,
      id: [],
      type: [],
      name: [],
      documentation: [],
      row_revision: [],
      properties: [],
    };
    const relationships = kind === "relationships";
    const source: string[] = [];
    const target: string[] = [];
    const sourceName: string[] = [];
    const targetName: string[] = [];
    rows.forEach((r, i) => {
      let t = typeIndex.get(r.type);
      if (t === undefined) {
        t = types.push(r.type) - 1;
        typeIndex.set(r.type, t);
      }
      rowOf.set(r.id, i);
      out.id.push(r.id);
      out.type.push(t);
      out.name.push(r.name ?? "");
      out.documentation.push(r.documentation);
      out.row_revision.push(Number(r.revision));
      if (relationships) {
        source.push(r.source ?? "");
        target.push(r.target ?? "");
        sourceName.push(r.sn ?? "");
        targetName.push(r.tn ?? "");
      }
    });
    if (relationships) Object.assign(out, { source, target, source_name: sourceName, target_name: targetName });
    const columns = new Map(
      defs.map((d) => [
        d.id,
        {
          id: d.id,
          name: d.name,
          type: d.type,
          allowed_values: d.allowedValues,
          rows: [] as number[],
          values: [] as (string | number | boolean)[],
          seen: new Set<number>(),
        },
      ]),
    );
    for (const v of values) {
      const col = columns.get(v.d);
      const row = rowOf.get(v.o);
      if (!col || row === undefined || col.seen.has(row)) continue; // a repeated definition shows its first value
      col.seen.add(row);
      col.rows.push(row);
      col.values.push(typedValue(col.type, v.v));
    }
    out.properties = [...columns.values()].map(({ seen: _, ...c }) => c);
    return out;
  });
}
