import type { Database, DbOrTx } from "@ams/db";
import { first, invalid, notFound } from "@ams/shared";
import { sql } from "drizzle-orm";
import type { z } from "zod";
import { deleteDanglingConnections } from "../cascade.ts";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { assertIdentifierFree } from "../elements/internal.ts";
import { withChange, withChangeResult } from "../history/change.ts";
import type { ExpectedRevision } from "../history/expect.ts";
import type { ChangeResult } from "../history/schemas.ts";
import { newId } from "../ids.ts";
import { getRelationshipRow } from "../relationships/internal.ts";
import {
  type ConnectionRow,
  connectionColumns,
  expectConnection,
  getViewRow,
  toConnection,
} from "../views/internal.ts";
import type { ViewConnection } from "../views/outputs.ts";
import type { CreateConnectionInput, UpdateConnectionInput } from "../views/schemas.ts";

/**
 * What an end of a connection shows: a node's element, or a connection's relationship (null for labels/lines), and
 * the name a person knows that end by (the concept's name, else the note's or group's label).
 */
async function endpointConcept(database: Database, tx: DbOrTx, ws: string, viewId: string, id: string, path: string) {
  const [row] = await database.rows<{ concept: string | null; name: string | null }>(
    sql`select n.element_id as concept, coalesce(nullif(e.name, ''), n.label) as name
          from view_nodes n
          left join elements e on e.workspace_id = n.workspace_id and e.id = n.element_id
         where n.workspace_id = ${ws} and n.view_id = ${viewId} and n.id = ${id}
        union all
        select c.relationship_id, nullif(r.name, '')
          from connections c
          left join relationships r on r.workspace_id = c.workspace_id and r.id = c.relationship_id
         where c.workspace_id = ${ws} and c.view_id = ${viewId} and c.id = ${id}`,
    tx,
  );
  if (!row) throw invalid(path, `no node or connection '${id}' in this view`);
  return row;
}

export async function createConnection({
  ctx,
  input,
}: Verb<CreateConnectionInput & { view_id: string }>): Promise<z.infer<typeof ViewConnection>> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const { database } = ctx;
  return withChange(ctx, { summary: "Added a connection" }, async (tx, change) => {
    const view = await getViewRow(database, ws, input.view_id, tx);
    const [source, target] = await Promise.all([
      endpointConcept(database, tx, ws, input.view_id, input.source, "source"),
      endpointConcept(database, tx, ws, input.view_id, input.target, "target"),
    ]);
    const s = source.concept;
    const t = target.concept;
    change.summary = `Connected '${source.name ?? input.source}' to '${target.name ?? input.target}' on view '${view.name}'`;
    if (input.relationship_id) {
      const rel = await getRelationshipRow(database, ws, input.relationship_id, tx).catch(() => {
        throw invalid("relationship_id", `no relationship '${input.relationship_id}' in this workspace`);
      });
      if (rel.source !== s || rel.target !== t) {
        throw invalid(
          "relationship_id",
          `relationship '${rel.id}' goes from '${rel.source}' to '${rel.target}', but the connection joins '${s ?? input.source}' to '${t ?? input.target}'`,
        );
      }
    }
    const id = input.id ?? newId();
    if (input.id) await assertIdentifierFree(database, tx, ws, id);
    const rows = await database.rows<ConnectionRow>(
      sql`insert into connections (workspace_id, id, view_id, ord, kind, relationship_id, source_id, target_id, bendpoints, label, style)
          values (${ws}, ${id}, ${input.view_id},
            coalesce((select max(ord) + 1 from connections where workspace_id = ${ws} and view_id = ${input.view_id}), 0),
            ${input.relationship_id ? "relationship" : "line"}, ${input.relationship_id ?? null}, ${input.source}, ${input.target},
            ${input.bendpoints?.length ? JSON.stringify(input.bendpoints) : null}::jsonb, ${input.label ?? null},
            ${input.style ? JSON.stringify(input.style) : null}::jsonb)
          returning ${connectionColumns}`,
      tx,
    );
    return toConnection(first(rows, "The inserted connection"));
  });
}

export async function updateConnection({
  ctx,
  input,
}: Verb<UpdateConnectionInput & { view_id: string; id: string } & ExpectedRevision>): Promise<
  z.infer<typeof ViewConnection>
> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const { database } = ctx;
  const [row] = await withChange(ctx, { summary: `Changed connection '${input.id}'` }, async (tx) => {
    await expectConnection(database, tx, ws, input.view_id, input.id, input.expected_revision);
    return database.rows<ConnectionRow>(
      sql`update connections set
          bendpoints = ${input.bendpoints === undefined ? sql`bendpoints` : sql`${input.bendpoints.length ? JSON.stringify(input.bendpoints) : null}::jsonb`},
          label = ${input.label === undefined ? sql`label` : sql`${input.label}`},
          style = ${input.style === undefined ? sql`style` : sql`${input.style ? JSON.stringify(input.style) : null}::jsonb`}
        where workspace_id = ${ws} and view_id = ${input.view_id} and id = ${input.id}
        returning ${connectionColumns}`,
      tx,
    );
  });
  if (!row) throw notFound("Connection", input.id);
  return toConnection(row);
}

/** Deletes the connection and any connection attached to it. */
export async function deleteConnection({
  ctx,
  input,
}: Verb<{ view_id: string; id: string } & ExpectedRevision>): Promise<ChangeResult> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const { database } = ctx;
  return withChangeResult(ctx, { summary: `Removed connection '${input.id}'` }, async (tx) => {
    await expectConnection(database, tx, ws, input.view_id, input.id, input.expected_revision);
    const [gone] = await database.rows(
      sql`delete from connections where workspace_id = ${ws} and view_id = ${input.view_id} and id = ${input.id} returning id`,
      tx,
    );
    if (!gone) throw notFound("Connection", input.id);
    await deleteDanglingConnections(database, tx, ws, [input.view_id]);
  });
}
