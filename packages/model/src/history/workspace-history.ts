import { sql } from "drizzle-orm";
import { requireCapability, type Verb } from "../context.ts";
import { inWorkspace } from "../workspaces/verbs.ts";
import { type GroupRow, groupColumns, pageLimit, pageOf, toHeader } from "./read-groups.ts";
import type { ChangeKind, WorkspaceHistoryPage, WorkspaceHistoryQuery } from "./read-schemas.ts";
import { entryAfter } from "./tables.ts";

/**
 * Objects listed per change of the workspace's history (an import touches every row of the model); the same number
 * is stored with each group by migration 0026's ams_change_group_objects.
 */
const OBJECTS_SHOWN = 20;

type Row = GroupRow & {
  entry_count: number;
  objects: [ChangeKind, string, "create" | "update" | "delete", string | null][];
};

/**
 * GET /api/workspaces/:id/history: the workspace's changes, newest first, each with who, when, through what, its
 * summary and the objects it touched with their names. Keyset paging on the revision, so every page costs the same
 * however old it is. Any role that reads the workspace reads its history; another organization's is not found.
 */
export async function getWorkspaceHistory({
  ctx,
  input,
}: Verb<WorkspaceHistoryQuery & { id: string }>): Promise<WorkspaceHistoryPage> {
  requireCapability(ctx, "model:read");
  const { workspaceId: ws } = await inWorkspace(ctx, input.id);
  const limit = input.limit ?? 50;
  // A group's objects are read from the list it stored when it closed (migration 0026), names looked up only
  // where the entry logged none; a group stored without one, or whose detail retention may have dropped (at or
  // below the mark), from its entries.
  const rows = await ctx.database.rows<Row>(
    sql`select ${groupColumns}, g.entry_count,
          case when g.objects is null
                 or g.revision <= (select w.history_compacted_through from workspaces w where w.id = ${ws})
            then (select jsonb_agg(jsonb_build_array(e.kind, e.object_id, e.op, ${objectName}) order by e.seq)
                  from (select e.workspace_id, e.seq, e.kind, e.object_id, e.op, e.before, ${entryAfter("e")} as after
                        from change_entries e
                        where e.workspace_id = g.workspace_id and e.revision = g.revision
                        order by e.seq limit ${OBJECTS_SHOWN}) e)
          when jsonb_path_exists(g.objects, 'strict $[*] ? (@[3] == null)')
            then ams_change_group_names(g.workspace_id, g.objects)
          else g.objects end as objects
        from change_groups g
        where g.workspace_id = ${ws}
          ${input.before ? sql`and g.revision < ${input.before}` : sql``}
          ${input.actor ? sql`and g.actor_id = ${input.actor}` : sql``}
          ${input.via ? sql`and g.via_kind = ${input.via}` : sql``}
          ${input.kind ? sql`and ${input.kind} = any(g.kinds)` : sql``}
        order by g.revision desc
        limit ${pageLimit(limit)}`,
  );
  const items = rows.map((r) => ({
    ...toHeader(r),
    object_count: r.entry_count,
    objects: (r.objects ?? []).map(([kind, id, op, name]) => ({ kind, id, op, name })),
  }));
  return pageOf(items, limit);
}

/**
 * An entry's object as a person names it: its name or label (after the change, else before it; `e.after` is the
 * state after as entryAfter reads it); a node or
 * connection by what it shows, a property value by its definition (current names, looked up by key).
 */
const objectName = sql`coalesce(
  e.after->>'name', e.before->>'name', e.after->>'label', e.before->>'label',
  case e.kind
    when 'node' then (select x.name from elements x
      where x.workspace_id = e.workspace_id and x.id = coalesce(e.after, e.before)->>'element_id')
    when 'connection' then (select x.name from relationships x
      where x.workspace_id = e.workspace_id and x.id = coalesce(e.after, e.before)->>'relationship_id')
    when 'property_value' then (select d.name from property_definitions d
      where d.workspace_id = e.workspace_id and d.id = coalesce(e.after, e.before)->>'definition_id')
    -- retention dropped the entry's detail: the object's current name, if it still exists
    when 'element' then (select x.name from elements x where x.workspace_id = e.workspace_id and x.id = e.object_id)
    when 'relationship' then (select x.name from relationships x
      where x.workspace_id = e.workspace_id and x.id = e.object_id)
    when 'view' then (select x.name from views x where x.workspace_id = e.workspace_id and x.id = e.object_id)
  end)`;
