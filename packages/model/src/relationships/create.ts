import { first } from "@ams/shared";
import { sql } from "drizzle-orm";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { assertIdentifierFree } from "../elements/internal.ts";
import { withChange } from "../history/change.ts";
import { newId } from "../ids.ts";
import { readProperties, writeProperties } from "../properties/values.ts";
import {
  assertAllowed,
  assertAttributesFit,
  endpointType,
  parseRelationshipType,
  type RelationshipRow,
  relationshipColumns,
  toRelationship,
} from "./internal.ts";
import type { CreateRelationshipInput, Relationship } from "./schemas.ts";

export async function createRelationship({ ctx, input }: Verb<CreateRelationshipInput>): Promise<Relationship> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const type = parseRelationshipType(input.type);
  assertAttributesFit(type, input);
  const { database } = ctx;
  return withChange(ctx, { summary: `Created ${type} relationship` }, async (tx, change) => {
    const id = input.id ?? newId();
    if (input.id) await assertIdentifierFree(database, tx, ws, id);
    const [s, t] = await Promise.all([
      endpointType(database, tx, ws, input.source, "source"),
      endpointType(database, tx, ws, input.target, "target"),
    ]);
    assertAllowed(type, s, t);
    change.summary = `Created ${type} relationship '${input.name || id}' from '${input.source}' to '${input.target}'`;
    const rows = await database.rows<RelationshipRow>(
      sql`insert into relationships (workspace_id, id, ord, type, source_id, target_id, name, documentation,
            is_directed, access_type, influence_strength)
          values (${ws}, ${id}, coalesce((select max(ord) + 1 from relationships where workspace_id = ${ws}), 0),
            ${type}, ${input.source}, ${input.target}, ${input.name ?? null}, ${input.documentation ?? null},
            ${type === "Association" ? (input.is_directed ?? false) : null},
            ${type === "Access" ? (input.access_type ?? "Write") : null},
            ${type === "Influence" ? (input.influence_strength ?? null) : null})
          returning ${relationshipColumns}`,
      tx,
    );
    const row = first(rows, "The inserted relationship");
    if (!input.properties) return toRelationship(row);
    await writeProperties(database, tx, ws, { kind: "relationship", id }, input.properties, true);
    const props = await readProperties(database, ws, "relationship", id, tx);
    return toRelationship(row, props.get(id));
  });
}
