import { notFound } from "@ams/shared";
import { sql } from "drizzle-orm";
import { type RequestContext, requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { typedValue } from "../properties/values.ts";
import { idList } from "../sql.ts";
import { fieldChanges, type GroupRow, groupColumns, pageLimit, pageOf, toHeader } from "./read-groups.ts";
import type { FieldDiff, HistoryQuery, ObjectChange, ObjectHistoryPage, ViewPartChange } from "./read-schemas.ts";
import { entryAfter } from "./tables.ts";

type Subject = { kind: "element" | "relationship" | "view"; table: string; noun: string };
const ELEMENT: Subject = { kind: "element", table: "elements", noun: "Element" };
const RELATIONSHIP: Subject = { kind: "relationship", table: "relationships", noun: "Relationship" };
const VIEW: Subject = { kind: "view", table: "views", noun: "View" };

type Entry = {
  revision: number | string;
  kind: string;
  object_id: string;
  op: "create" | "update" | "delete";
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

/** GET /api/elements/:id/history: the element's changes, newest first, field by field (its properties included). */
export async function getElementHistory({
  ctx,
  input,
}: Verb<HistoryQuery & { id: string }>): Promise<ObjectHistoryPage> {
  return objectHistory(ctx, ELEMENT, input);
}

/** GET /api/relationships/:id/history: the relationship's changes, newest first, field by field. */
export async function getRelationshipHistory({
  ctx,
  input,
}: Verb<HistoryQuery & { id: string }>): Promise<ObjectHistoryPage> {
  return objectHistory(ctx, RELATIONSHIP, input);
}

/** GET /api/views/:id/history: the view's changes, with its nodes and connections added, removed, moved, resized. */
export async function getViewHistory({ ctx, input }: Verb<HistoryQuery & { id: string }>): Promise<ObjectHistoryPage> {
  return objectHistory(ctx, VIEW, input);
}

/**
 * The changes of one object of the active workspace: its own entries (by kind and id) and those of what it owns
 * (property values; a view's nodes and connections), found by the log's indexes. A deleted object keeps its
 * history; one the workspace never had is not found.
 */
async function objectHistory(ctx: RequestContext, subject: Subject, input: HistoryQuery & { id: string }) {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const { database } = ctx;
  const limit = input.limit ?? 50;
  const owned = subject.kind === "view" ? sql`('node', 'connection', 'property_value')` : sql`('property_value')`;
  // An element's, relationship's or view's own entries have no owner: saying so lets the object index serve them (it
  // leaves out the creations of owned objects, found by the owner index; migration 0033).
  const mine = sql`((e.kind = ${subject.kind} and e.object_id = ${input.id} and e.owner_id is null) or (e.owner_id = ${input.id} and e.kind in ${owned}))`;
  const older = input.before ? sql`and e.revision < ${input.before}` : sql``;
  // One statement: the page's revisions (both indexes, newest first), their groups, and each group's entries of
  // this object and what it owns, aggregated per group (a round trip per page, not one per step).
  const rows = await database.rows<
    GroupRow & { entries: [Entry["kind"], string, Entry["op"], Entry["before"], Entry["after"]][] }
  >(
    sql`with r as (
          select revision from (
            select e.revision from change_entries e
            where e.workspace_id = ${ws} and e.kind = ${subject.kind} and e.object_id = ${input.id} and e.owner_id is null
              ${older}
            union
            select e.revision from change_entries e
            where e.workspace_id = ${ws} and e.owner_id = ${input.id} and e.kind in ${owned} ${older}
          ) r order by revision desc limit ${pageLimit(limit)})
        select ${groupColumns},
          (select json_agg(json_build_array(e.kind, e.object_id, e.op, e.before, ${entryAfter("e")}) order by e.seq)
           from change_entries e where e.workspace_id = g.workspace_id and e.revision = g.revision and ${mine}) as entries
        from r join change_groups g on g.workspace_id = ${ws} and g.revision = r.revision
        order by g.revision desc`,
  );
  if (rows.length === 0 && !input.before) await requireExists(ctx, ws, subject, input.id);
  if (rows.length === 0) return { items: [], next_before: null };
  const groups = rows;
  const entries: Entry[] = rows.flatMap((g) =>
    (g.entries ?? []).map(([kind, object_id, op, before, after]) => ({
      revision: g.revision,
      kind,
      object_id,
      op,
      before,
      after,
    })),
  );
  const definitionIds = [
    ...new Set(
      entries.filter((e) => e.kind === "property_value").map((e) => String((e.after ?? e.before)?.definition_id ?? "")),
    ),
  ];
  const definitions =
    definitionIds.length === 0
      ? []
      : await database.rows<{ id: string; name: string; type: string }>(
          sql`select id, name, type from property_definitions where workspace_id = ${ws} and id in ${idList(definitionIds)}`,
        );
  const defs = new Map(definitions.map((d) => [d.id, d]));
  const names = subject.kind === "view" ? await partNames(ctx, ws, entries) : new Map<string, string>();
  const byRevision = new Map<number, Entry[]>();
  for (const e of entries) {
    const list = byRevision.get(Number(e.revision)) ?? [];
    list.push(e);
    byRevision.set(Number(e.revision), list);
  }
  const items: ObjectChange[] = groups.map((g) => {
    const own = byRevision.get(Number(g.revision)) ?? [];
    const self = own.find((e) => e.kind === subject.kind);
    const fields: FieldDiff[] = self ? fieldChanges(self.before, self.after) : [];
    for (const e of own) if (e.kind === "property_value") fields.push(propertyChange(e, defs));
    const header = toHeader(g);
    // In a compacted group an entry a version needs keeps its detail; the others show who and when only.
    const compacted = header.detail_compacted && own.every((e) => e.before === null && e.after === null);
    const item: ObjectChange = { ...header, detail_compacted: compacted, op: self?.op ?? "update", fields };
    if (subject.kind === "view") {
      item.parts = own.filter((e) => e.kind === "node" || e.kind === "connection").map((e) => partChange(e, names));
    }
    return item;
  });
  return pageOf(items, limit);
}

async function requireExists(ctx: RequestContext, ws: string, subject: Subject, id: string) {
  const [row] = await ctx.database.rows(
    sql`select 1 from ${sql.raw(subject.table)} where workspace_id = ${ws} and id = ${id}`,
  );
  if (!row) throw notFound(subject.noun, id);
}

type Definitions = Map<string, { name: string; type: string }>;

/** A property value's entry as the field properties.<definition name> (a deleted definition: its id). */
function propertyChange(e: Entry, defs: Definitions): FieldDiff {
  const definitionId = String((e.after ?? e.before)?.definition_id ?? "");
  const def = defs.get(definitionId);
  const value = (row: Entry["before"]) =>
    row && typeof row.value === "string" ? (def ? typedValue(def.type, row.value) : row.value) : null;
  return { field: `properties.${def?.name ?? definitionId}`, before: value(e.before), after: value(e.after) };
}

const moved = (f: FieldDiff[]) => f.some((c) => c.field === "x" || c.field === "y" || c.field === "parent_id");
const resized = (f: FieldDiff[]) => f.some((c) => c.field === "w" || c.field === "h");

function partChange(e: Entry, names: Map<string, string>): ViewPartChange {
  const fields = fieldChanges(e.before, e.after);
  const row = e.after ?? e.before ?? {};
  const shows = String(row.element_id ?? row.relationship_id ?? "");
  const label = typeof row.label === "string" ? row.label : null;
  const change =
    e.op === "create"
      ? "added"
      : e.op === "delete"
        ? "removed"
        : moved(fields) && resized(fields)
          ? "moved and resized"
          : moved(fields)
            ? "moved"
            : resized(fields)
              ? "resized"
              : "changed";
  return {
    kind: e.kind as ViewPartChange["kind"],
    id: e.object_id,
    name: names.get(shows) ?? label ?? (shows || null),
    change,
    fields,
  };
}

/** The current names of the elements and relationships the view's changed nodes and connections show. */
async function partNames(ctx: RequestContext, ws: string, entries: Entry[]) {
  const ids = new Set<string>();
  for (const e of entries) {
    const row = e.after ?? e.before;
    for (const key of ["element_id", "relationship_id"]) if (typeof row?.[key] === "string") ids.add(row[key]);
  }
  if (ids.size === 0) return new Map<string, string>();
  const rows = await ctx.database.rows<{ id: string; name: string | null }>(
    sql`select id, coalesce(nullif(name, ''), type) as name from elements
          where workspace_id = ${ws} and id in ${idList([...ids])}
        union all select id, coalesce(nullif(name, ''), type) from relationships
          where workspace_id = ${ws} and id in ${idList([...ids])}`,
  );
  return new Map(rows.filter((r) => r.name).map((r) => [r.id, r.name ?? ""]));
}
