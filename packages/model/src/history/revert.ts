import { AppError } from "@ams/shared";
import { sql } from "drizzle-orm";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { applyStates } from "./apply.ts";
import { withClosedChange } from "./change.ts";
import { historyBounds } from "./points.ts";
import type { ChangeResult } from "./schemas.ts";
import type { ObjectState } from "./states.ts";
import { asRow, type Kind } from "./tables.ts";

/**
 * Undoes one change group as a new one: every object it touched goes back to its state before it (an undelete
 * brings the element back with the same id, its relationships, nodes, connections, property values and folder
 * entry). When a later group touched any of those objects, 409 names those revisions and objects.
 */
export async function revertChange({ ctx, input }: Verb<{ revision: number }>): Promise<ChangeResult> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const bounds = await historyBounds(ctx, ws);
  if (input.revision > bounds.current)
    throw new AppError("VALIDATION", `revision: ${input.revision} is beyond the current revision ${bounds.current}`, {
      errors: [{ path: "revision", message: `beyond the current revision ${bounds.current}` }],
    });
  const [group] = await ctx.database.rows<{ summary: string }>(
    sql`select summary from change_groups where workspace_id = ${ws} and revision = ${input.revision}`,
  );
  if (!group) throw new AppError("NOT_FOUND", `No change with revision ${input.revision} in this workspace`);
  const summary = `Reverted revision ${input.revision}: ${group.summary}`.slice(0, 500);
  const { out, closed } = await withClosedChange(ctx, { summary }, async (tx, change) => {
    // Read under the workspace row's lock (held since the group opened): a retention compaction is wholly before.
    const { compacted } = await historyBounds(ctx, ws, tx);
    if (input.revision <= compacted)
      throw new AppError(
        "CONFLICT",
        `Revision ${input.revision}'s detail is no longer kept (HISTORY_RETENTION_DAYS compacted the history through ` +
          `revision ${compacted}): restore a version instead`,
      );
    const rows = await ctx.database.rows<{ kind: Kind; object_id: string; before: unknown }>(
      sql`select distinct on (kind, object_id) kind, object_id, before from change_entries
          where workspace_id = ${ws} and revision = ${input.revision} order by kind, object_id, seq`,
      tx,
    );
    const keys = JSON.stringify(rows.map((r) => `${r.kind}:${r.object_id}`));
    const later = await ctx.database.rows<{ kind: string; object_id: string; revisions: (string | number)[] }>(
      sql`select kind, object_id, array_agg(distinct revision order by revision) as revisions from change_entries
          where workspace_id = ${ws} and revision > ${input.revision} and revision < ${await change.revision}
            and kind || ':' || object_id in (select json_array_elements_text(${keys}::json))
          group by kind, object_id order by kind, object_id`,
      tx,
    );
    if (later.length > 0) {
      const conflicts = later.map((l) => ({ kind: l.kind, id: l.object_id, revisions: l.revisions.map(Number) }));
      const revisions = [...new Set(conflicts.flatMap((c) => c.revisions))].sort((a, b) => a - b);
      const named = conflicts.slice(0, 5).map((c) => `${c.kind} '${c.id}'`);
      throw new AppError(
        "CONFLICT",
        `Later changes touched the same objects: revision${revisions.length > 1 ? "s" : ""} ${revisions.join(", ")} ` +
          `(${named.join(", ")}${conflicts.length > 5 ? ", ..." : ""}); revert those first or restore a version`,
        {
          errors: conflicts.map((c) => ({
            path: `${c.kind}/${c.id}`,
            message: `changed later in revision${c.revisions.length > 1 ? "s" : ""} ${c.revisions.join(", ")}`,
          })),
        },
      );
    }
    const states: ObjectState[] = rows.map((r) => ({ kind: r.kind, objectId: r.object_id, row: asRow(r.before) }));
    const objects = await applyStates(ctx.database, tx, ws, states);
    return { summary, objects };
  });
  return { ...out, revision: closed.revision };
}
