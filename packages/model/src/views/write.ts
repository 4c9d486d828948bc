import { first, notFound } from "@ams/shared";
import { sql } from "drizzle-orm";
import { deleteFolderItems } from "../cascade.ts";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { assertIdentifierFree } from "../elements/internal.ts";
import { withChange, withChangeResult } from "../history/change.ts";
import type { ExpectedRevision } from "../history/expect.ts";
import type { ChangeResult } from "../history/schemas.ts";
import { newId } from "../ids.ts";
import { deleteProperties, readProperties, writeProperties } from "../properties/values.ts";
import { clearI18n } from "../sql.ts";
import { showElements } from "./arrange.ts";
import { expectView, getViewRow, parseViewpoint, toView, type ViewRow, viewColumns } from "./internal.ts";
import type { ViewSummary } from "./outputs.ts";
import { getView } from "./read.ts";
import type { CreateViewInput, UpdateViewInput } from "./schemas.ts";

export async function createView({ ctx, input }: Verb<CreateViewInput>): Promise<ViewSummary> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const viewpoint = parseViewpoint(input.viewpoint) ?? null;
  const { database } = ctx;
  const made = await withChange(ctx, { summary: `Created view '${input.name}'` }, async (tx, change) => {
    const id = input.id ?? newId();
    if (input.id) await assertIdentifierFree(database, tx, ws, id);
    const rows = await database.rows<ViewRow>(
      sql`insert into views (workspace_id, id, ord, name, viewpoint, documentation)
          values (${ws}, ${id}, coalesce((select max(ord) + 1 from views where workspace_id = ${ws}), 0),
            ${input.name}, ${viewpoint}, ${input.documentation ?? null})
          returning ${viewColumns}`,
      tx,
    );
    if (input.properties) await writeProperties(database, tx, ws, { kind: "view", id }, input.properties, true);
    const props = await readProperties(database, ws, "view", id, tx);
    if (input.element_ids) {
      const shown = await showElements(database, tx, ws, {
        view_id: id,
        element_ids: input.element_ids,
        include_relationships: true,
        layout: "layered",
      });
      change.summary = `Created view '${input.name}' with ${shown.added.length} elements`;
    }
    return { ...toView(first(rows, "The inserted view"), props.get(id)), nodes: [], connections: [] };
  });
  // Made with its elements: the answer shows them, as GET /api/views/:id does.
  return input.element_ids ? getView({ ctx, input: { id: made.id } }) : made;
}

export async function updateView({
  ctx,
  input,
}: Verb<UpdateViewInput & { id: string } & ExpectedRevision>): Promise<ViewSummary> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const viewpoint = parseViewpoint(input.viewpoint);
  const { database } = ctx;
  return withChange(ctx, { summary: `Updated view '${input.id}'` }, async (tx, change) => {
    await expectView(database, tx, ws, input.id, input.expected_revision);
    const cur = await getViewRow(database, ws, input.id, tx);
    change.summary =
      input.name !== undefined && input.name !== cur.name
        ? `Renamed view '${cur.name}' to '${input.name}'`
        : `Updated view '${cur.name}'`;
    const [row] = await database.rows<ViewRow>(
      sql`update views set name = ${input.name ?? cur.name},
            viewpoint = ${viewpoint === undefined ? cur.viewpoint : viewpoint},
            documentation = ${input.documentation === undefined ? cur.documentation : input.documentation},
            i18n = ${clearI18n({ name: input.name, documentation: input.documentation })}
          where workspace_id = ${ws} and id = ${input.id}
          returning ${viewColumns}`,
      tx,
    );
    if (!row) throw notFound("View", input.id);
    if (input.properties) {
      const revision = await writeProperties(database, tx, ws, { kind: "view", id: input.id }, input.properties, false);
      if (revision !== undefined) row.revision = revision;
    }
    const props = await readProperties(database, ws, "view", input.id, tx);
    return toView(row, props.get(input.id));
  });
}

/** Deletes the view with its nodes and connections (foreign-key cascade). */
export async function deleteView({ ctx, input }: Verb<{ id: string } & ExpectedRevision>): Promise<ChangeResult> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const { database } = ctx;
  return withChangeResult(ctx, { summary: `Deleted view '${input.id}'` }, async (tx, change) => {
    await expectView(database, tx, ws, input.id, input.expected_revision);
    const [gone] = await database.rows<{ name: string }>(
      sql`delete from views where workspace_id = ${ws} and id = ${input.id} returning name`,
      tx,
    );
    if (!gone) throw notFound("View", input.id);
    change.summary = `Deleted view '${gone.name}'`;
    await deleteProperties(database, tx, ws, "view", [input.id]);
    await deleteFolderItems(database, tx, ws, [input.id]);
  });
}
