import type { Database, DbOrTx } from "@ams/db";
import {
  AppError,
  allowedRelationships,
  type ElementType,
  invalid,
  isRelationshipAllowed,
  notFound,
  type RelationshipType,
  resolveRelationshipType,
} from "@ams/shared";
import { sql } from "drizzle-orm";
import { expectRevision } from "../history/expect.ts";
import { readProperties } from "../properties/values.ts";
import type { Properties } from "../schemas.ts";
import { withArticle } from "../words.ts";
import type { Relationship } from "./schemas.ts";

export type RelationshipRow = {
  id: string;
  type: string;
  source: string;
  target: string;
  name: string | null;
  documentation: string | null;
  isDirected: boolean | null;
  accessType: string | null;
  influenceStrength: string | null;
  revision: number | string;
};

export const relationshipColumns = sql`id, type, source_id as source, target_id as target, name, documentation,
  is_directed as "isDirected", access_type as "accessType", influence_strength as "influenceStrength", revision`;

export function toRelationship(row: RelationshipRow, properties: Properties = {}): Relationship {
  const out: Relationship = {
    id: row.id,
    type: row.type,
    source: row.source,
    target: row.target,
    name: row.name,
    documentation: row.documentation,
    properties,
    revision: Number(row.revision),
  };
  if (row.type === "Association") out.is_directed = row.isDirected ?? false;
  if (row.type === "Access") out.access_type = (row.accessType ?? "Write") as Relationship["access_type"];
  if (row.type === "Influence" && row.influenceStrength !== null) out.influence_strength = row.influenceStrength;
  return out;
}

export function parseRelationshipType(input: string, path = "type"): RelationshipType {
  const type = resolveRelationshipType(input);
  if (!type) {
    throw invalid(
      path,
      `'${input}' is not an ArchiMate relationship type (Composition, Aggregation, Assignment, Realization, Serving, Access, Influence, Triggering, Flow, Specialization, Association)`,
    );
  }
  return type;
}

/** expectRevision for a relationship: refused with the relationship as it is now (its properties included). */
export function expectRelationship(
  database: Database,
  tx: DbOrTx,
  ws: string,
  id: string,
  expected: number | undefined,
) {
  const target = { table: "relationships", workspaceId: ws, id, what: "Relationship" } as const;
  return expectRevision(database, tx, target, expected, async () =>
    toRelationship(
      await getRelationshipRow(database, ws, id, tx),
      (await readProperties(database, ws, "relationship", id, tx)).get(id),
    ),
  );
}

export async function getRelationshipRow(database: Database, ws: string, id: string, on?: DbOrTx) {
  const [row] = await database.rows<RelationshipRow>(
    sql`select ${relationshipColumns} from relationships where workspace_id = ${ws} and id = ${id}`,
    on,
  );
  if (!row) throw notFound("Relationship", id);
  return row;
}

/** The concept type of an endpoint: an element's type, or "Relationship" for a relationship on a relationship. */
export async function endpointType(database: Database, tx: DbOrTx, ws: string, id: string, path: string) {
  const [row] = await database.rows<{ type: string }>(
    sql`select type from elements where workspace_id = ${ws} and id = ${id}
        union all select 'Relationship' from relationships where workspace_id = ${ws} and id = ${id}`,
    tx,
  );
  if (!row) throw invalid(path, `no element or relationship '${id}' in this workspace`);
  return row.type as ElementType | "Relationship";
}

export function assertAllowed(
  type: RelationshipType,
  source: ElementType | "Relationship",
  target: ElementType | "Relationship",
) {
  if (isRelationshipAllowed(type, source, target)) return;
  const allowed = allowedRelationships(source, target);
  throw invalid(
    "type",
    `ArchiMate 3.1 does not allow ${withArticle(type)} relationship from ${source} to ${target}` +
      (allowed.length ? ` (allowed: ${allowed.join(", ")})` : " (no relationship is allowed between these types)"),
  );
}

/** Attributes that belong to one relationship type only are refused on the others. */
export function assertAttributesFit(
  type: RelationshipType,
  attrs: { is_directed?: unknown; access_type?: unknown; influence_strength?: unknown },
) {
  if (attrs.access_type != null && type !== "Access")
    throw invalid("access_type", "only Access relationships have an access_type");
  if (attrs.is_directed != null && type !== "Association")
    throw invalid("is_directed", "only Association relationships have is_directed");
  if (attrs.influence_strength != null && type !== "Influence") {
    throw invalid("influence_strength", "only Influence relationships have an influence_strength");
  }
}

/** Before an element changes type, every relationship touching it must stay valid under the 3.1 table. */
export async function assertRelationshipsStillValid(
  database: Database,
  tx: DbOrTx,
  ws: string,
  elementId: string,
  newType: ElementType,
) {
  const rows = await database.rows<{
    id: string;
    type: RelationshipType;
    source: string;
    target: string;
    st: string | null;
    tt: string | null;
  }>(
    sql`select r.id, r.type, r.source_id as source, r.target_id as target,
          coalesce(se.type, case when sr.id is not null then 'Relationship' end) as st,
          coalesce(te.type, case when tr.id is not null then 'Relationship' end) as tt
        from relationships r
        left join elements se on se.workspace_id = r.workspace_id and se.id = r.source_id
        left join relationships sr on sr.workspace_id = r.workspace_id and sr.id = r.source_id
        left join elements te on te.workspace_id = r.workspace_id and te.id = r.target_id
        left join relationships tr on tr.workspace_id = r.workspace_id and tr.id = r.target_id
        where r.workspace_id = ${ws} and (r.source_id = ${elementId} or r.target_id = ${elementId})`,
    tx,
  );
  for (const r of rows) {
    const s = (r.source === elementId ? newType : r.st) as ElementType | "Relationship";
    const t = (r.target === elementId ? newType : r.tt) as ElementType | "Relationship";
    if (!isRelationshipAllowed(r.type, s, t)) {
      throw new AppError(
        "VALIDATION",
        `type: changing the type to ${newType} would make relationship '${r.id}' (${r.type} from ${s} to ${t}) invalid under ArchiMate 3.1`,
        { errors: [{ path: "type", message: `relationship '${r.id}' would become invalid` }] },
      );
    }
  }
}
