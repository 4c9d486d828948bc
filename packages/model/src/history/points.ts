import type { DbOrTx } from "@ams/db";
import { AppError } from "@ams/shared";
import { sql } from "drizzle-orm";
import type { RequestContext } from "../context.ts";
import { getVersion, isVersionId } from "./versions.ts";

/** A point of history a reader compares or restores: a revision, and the version naming it when one was given. */
export type Point = { revision: number; version: { id: string; name: string } | null };

/** The workspace's current revision and how far retention compacted its history. */
export async function historyBounds(ctx: RequestContext, ws: string, on?: DbOrTx) {
  const [row] = await ctx.database.rows<{ revision: string | number; compacted: string | number }>(
    sql`select revision, history_compacted_through as compacted from workspaces where id = ${ws}`,
    on,
  );
  if (!row) throw new AppError("NOT_FOUND", `Workspace '${ws}' not found`);
  return { current: Number(row.revision), compacted: Number(row.compacted) };
}

const invalid = (field: string, message: string) =>
  new AppError("VALIDATION", `${field}: ${message}`, { errors: [{ path: field, message }] });

/**
 * Resolves `ref` (a version id, a revision number, or "current" when allowed) in the workspace: another
 * workspace's version is 404; a revision beyond the current one is 422, as is one whose detail retention compacted
 * (only versions' states are kept there).
 */
export async function resolvePoint(
  ctx: RequestContext,
  ws: string,
  field: string,
  ref: string,
  opts: { allowCurrent: boolean },
  on?: DbOrTx,
): Promise<Point> {
  const bounds = await historyBounds(ctx, ws, on);
  if (ref === "current") {
    if (!opts.allowCurrent) throw invalid(field, "'current' is not allowed here");
    return { revision: bounds.current, version: null };
  }
  if (isVersionId(ref)) {
    const v = await getVersion(ctx, ws, ref, on);
    return { revision: v.revision, version: { id: v.id, name: v.name } };
  }
  if (!/^\d{1,15}$/.test(ref)) throw invalid(field, `'${ref}' is neither a version id nor a revision number`);
  const revision = Number(ref);
  if (revision > bounds.current)
    throw invalid(field, `revision ${revision} is beyond the workspace's current revision ${bounds.current}`);
  await requireReconstructable(ctx, ws, field, revision, bounds.compacted, on);
  return { revision, version: null };
}

/** A revision retention compacted is reconstructed only where a version names it. */
export async function requireReconstructable(
  ctx: RequestContext,
  ws: string,
  field: string,
  revision: number,
  compacted: number,
  on?: DbOrTx,
) {
  if (revision >= compacted) return;
  const named = await ctx.database.rows(
    sql`select 1 from workspace_versions where workspace_id = ${ws} and revision = ${revision} limit 1`,
    on,
  );
  if (named.length === 0)
    throw invalid(
      field,
      `the history before revision ${compacted} keeps only versions' states (HISTORY_RETENTION_DAYS): name a version`,
    );
}
