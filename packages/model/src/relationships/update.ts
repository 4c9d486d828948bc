import { invalid, notFound } from "@ams/shared";
import { sql } from "drizzle-orm";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { withChange } from "../history/change.ts";
import type { ExpectedRevision } from "../history/expect.ts";
import { readProperties, writeProperties } from "../properties/values.ts";
import { clearI18n } from "../sql.ts";
import {
  assertAllowed,
  assertAttributesFit,
  endpointType,
  expectRelationship,
  getRelationshipRow,
  parseRelationshipType,
  type RelationshipRow,
  relationshipColumns,
  toRelationship,
} from "./internal.ts";
import type { Relationship, UpdateRelationshipInput } from "./schemas.ts";

export async function updateRelationship({
  ctx,
  input,
}: Verb<UpdateRelationshipInput & { id: string } & ExpectedRevision>): Promise<Relationship> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const { database } = ctx;
  return withChange(ctx, { summary: `Updated relationship '${input.id}'` }, async (tx, change) => {
    await expectRelationship(database, tx, ws, input.id, input.expected_revision);
    const cur = await getRelationshipRow(database, ws, input.id, tx);
    change.summary = `Updated ${cur.type} relationship '${cur.name || cur.id}'`;
    const type =
      input.type !== undefined
        ? parseRelationshipType(input.type)
        : (cur.type as ReturnType<typeof parseRelationshipType>);
    assertAttributesFit(type, input);
    const source = input.source ?? cur.source;
    const target = input.target ?? cur.target;
    if (source === input.id || target === input.id)
      throw invalid(source === input.id ? "source" : "target", "a relationship cannot connect to itself");
    if (input.type !== undefined || input.source !== undefined || input.target !== undefined) {
      const [s, t] = await Promise.all([
        endpointType(database, tx, ws, source, "source"),
        endpointType(database, tx, ws, target, "target"),
      ]);
      assertAllowed(type, s, t);
    }
    const keep = <T>(next: T | undefined, prev: T) => (next === undefined ? prev : next);
    const [row] = await database.rows<RelationshipRow>(
      sql`update relationships set type = ${type}, source_id = ${source}, target_id = ${target},
            name = ${keep(input.name, cur.name)}, documentation = ${keep(input.documentation, cur.documentation)},
            is_directed = ${type === "Association" ? (keep(input.is_directed, cur.isDirected) ?? false) : null},
            access_type = ${type === "Access" ? (keep(input.access_type, cur.accessType) ?? "Write") : null},
            influence_strength = ${type === "Influence" ? keep(input.influence_strength, cur.influenceStrength) : null},
            i18n = ${clearI18n({ name: input.name, documentation: input.documentation })}
          where workspace_id = ${ws} and id = ${input.id} returning ${relationshipColumns}`,
      tx,
    );
    if (!row) throw notFound("Relationship", input.id);
    if (input.properties) {
      const owner = { kind: "relationship", id: input.id } as const;
      const revision = await writeProperties(database, tx, ws, owner, input.properties, false);
      if (revision !== undefined) row.revision = revision;
    }
    const props = await readProperties(database, ws, "relationship", input.id, tx);
    return toRelationship(row, props.get(input.id));
  });
}
