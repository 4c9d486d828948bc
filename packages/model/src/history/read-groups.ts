import type { ViaKind } from "@ams/shared";
import { sql } from "drizzle-orm";
import type { ChangeGroupHeader, FieldDiff } from "./read-schemas.ts";

export type GroupRow = {
  revision: number | string;
  created_at: Date | string;
  actor_id: string | null;
  actor_name: string | null;
  via_kind: ViaKind;
  via_name: string | null;
  request_id: string | null;
  summary: string;
  detail_compacted: boolean;
};

/** The columns of a GroupRow, of change_groups aliased g (compacted: at or below the workspace's retention mark). */
export const groupColumns = sql`g.revision, g.created_at, g.actor_id, g.actor_name, g.via_kind, g.via_name,
  g.request_id, g.summary,
  g.revision <= (select w.history_compacted_through from workspaces w where w.id = g.workspace_id) as detail_compacted`;

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

export const toHeader = (row: GroupRow): ChangeGroupHeader => ({
  revision: Number(row.revision),
  created_at: iso(row.created_at),
  actor: { id: row.actor_id, name: row.actor_name },
  via: { kind: row.via_kind, name: row.via_name },
  request_id: row.request_id,
  summary: row.summary,
  detail_compacted: Boolean(row.detail_compacted),
});

/** Keys a history never shows as a changed field: identity and storage order. */
const HIDDEN = new Set(["id", "ord", "view_id", "owner_kind", "owner_id"]);

type Row = Record<string, unknown> | null;
const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** The fields that differ between two versions of a row (null: absent); a create lists what it set, a delete what it had. */
export function fieldChanges(before: Row, after: Row): FieldDiff[] {
  const keys = [...new Set([...Object.keys(after ?? {}), ...Object.keys(before ?? {})])];
  const out: FieldDiff[] = [];
  for (const key of keys) {
    if (HIDDEN.has(key)) continue;
    const b = before?.[key] ?? null;
    const a = after?.[key] ?? null;
    if (!same(a, b)) out.push({ field: key, before: b, after: a });
  }
  return out;
}

/**
 * `limit + 1` as a literal: a bound LIMIT leaves a prepared statement's generic plan guessing a tenth of the table,
 * whose estimated cost then crosses jit_above_cost and JIT-compiles every page (hundreds of ms).
 */
export const pageLimit = (limit: number) => sql.raw(String((Number.isInteger(limit) && limit > 0 ? limit : 50) + 1));

/** The page's items and the next page's `before` (read limit + 1 rows to know whether there is one). */
export function pageOf<T extends { revision: number }>(items: T[], limit: number) {
  const page = items.slice(0, limit);
  const last = page.at(-1);
  return { items: page, next_before: items.length > limit && last ? last.revision : null };
}
