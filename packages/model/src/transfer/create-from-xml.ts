import { requireCapability, type Verb } from "../context.ts";
import { parseExchange } from "../exchange/parse.ts";
import { actorOf, importVia, recordClosedChange } from "../history/change.ts";
import { replaceModel } from "../store/write-document.ts";
import { selectWorkspace, toWorkspace } from "../workspaces/internal.ts";
import type { CreateWorkspaceInput } from "../workspaces/schemas.ts";
import { insertWorkspace, mayCreateWorkspace } from "../workspaces/verbs.ts";
import { type ImportResult, importSummary, refreshPlannerStatistics } from "./import-model.ts";
import type { WorkspaceFromFile } from "./schemas.ts";

export type CreateWorkspaceFromXmlInput = Omit<CreateWorkspaceInput, "path"> & { xml: string; activate?: boolean };

/**
 * Creates a workspace holding the model of an Open Exchange document and makes it the caller's active one, in one
 * transaction: the file is parsed and checked completely before anything is written, and a refused or failing
 * import leaves no workspace behind.
 */
export async function createWorkspaceFromXml({
  ctx,
  input,
}: Verb<CreateWorkspaceFromXmlInput>): Promise<WorkspaceFromFile> {
  const org = mayCreateWorkspace(ctx, input);
  requireCapability(ctx, "model:write");
  const { xml, activate = true, ...workspace } = input;
  const { document, warnings } = parseExchange(xml);
  const { database } = ctx;
  const { row, revision, changes } = await database.db.transaction(async (tx) => {
    const created = await insertWorkspace(database, tx, org, workspace);
    const { out, closed } = await recordClosedChange(
      database,
      tx,
      created.id,
      actorOf(ctx, importVia(ctx)),
      importSummary(document),
      (t) => replaceModel(database, t, created.id, document),
    );
    if (activate) await selectWorkspace(database, ctx.userId, org, created.id, tx);
    return { row: created, revision: closed.revision, changes: out };
  });
  await refreshPlannerStatistics(database, changes);
  const imported: ImportResult = {
    elements: document.elements.length,
    relationships: document.relationships.length,
    views: document.views.length,
    property_definitions: document.propertyDefinitions.length,
    warnings,
    revision,
  };
  return { ...toWorkspace(row, activate ? row.id : ctx.workspaceId), import: imported };
}
