import type { Database, DbOrTx, ModelInfo } from "@ams/db";
import { sql } from "drizzle-orm";
import type { FolderRow, ModelDocument, PropertyValueRow } from "../exchange/document.ts";
import { SYSTEM_ICON_PACK_ID } from "../properties/definitions.ts";
import type { IconResolver } from "../render/types.ts";
import { anyOf } from "../sql.ts";
import type { ReportChunk } from "./pages.ts";
import {
  appearsInOf,
  diagramsOf,
  documentationOf,
  indexConcepts,
  propertiesOf,
  type ReportDetail,
  type ReportElement,
  type ReportIndex,
  type ReportRelationship,
  type ReportView,
} from "./report-model.ts";

/**
 * The report of a model read in pieces (a streamed report): first its index (names, types, relationships' ends,
 * which views show what: what any page may name), then per chunk of pages their documentation, properties and
 * diagrams. Every read is in the caller's snapshot (`on`), so the pages agree as if the model had been read whole.
 */
export type ReportReader = {
  index: ReportIndex;
  detailOf(chunk: ReportChunk): Promise<ReportDetail>;
};

const OWNER_KIND = { views: "view", elements: "element", relationships: "relationship" } as const;
const TABLE = { views: sql.raw("views"), elements: sql.raw("elements"), relationships: sql.raw("relationships") };

type PropertyRow = Pick<PropertyValueRow, "ownerKind" | "ownerId" | "ord" | "definitionId" | "value">;

export async function readReport(
  database: Database,
  ws: string,
  on: DbOrTx,
  resolveIcon?: IconResolver,
): Promise<ReportReader> {
  const q = <T>(query: ReturnType<typeof sql>) => database.rows<T>(query, on);
  const [[info], definitions, elements, relationships, views, pairs, folders] = await Promise.all([
    q<{ model: ModelInfo; name: string }>(sql`select model, name from workspaces where id = ${ws}`),
    q<{ id: string; name: string }>(sql`select id, name from property_definitions where workspace_id = ${ws}`),
    q<ReportElement>(sql`select id, type, name from elements where workspace_id = ${ws} order by ord`),
    q<ReportRelationship>(
      sql`select id, type, source_id as "sourceId", target_id as "targetId", name, is_directed as "isDirected",
          access_type as "accessType", influence_strength as "influenceStrength"
        from relationships where workspace_id = ${ws} order by ord`,
    ),
    q<ReportView>(sql`select id, name, viewpoint from views where workspace_id = ${ws} order by ord`),
    // Which views show what, as distinct pairs: a model's nodes and connections are never all held at once.
    q<{ concept: string; viewId: string }>(
      sql`select element_id as concept, view_id as "viewId" from view_nodes
          where workspace_id = ${ws} and element_id is not null
        union
        select relationship_id, view_id from connections where workspace_id = ${ws} and relationship_id is not null`,
    ),
    q<FolderRow>(
      sql`select id, parent_id as "parentId", ord, identifier, label, documentation, ref_id as "refId", i18n
        from folders where workspace_id = ${ws} order by parent_id nulls first, ord`,
    ),
  ]);
  const model: ModelInfo = { ...(info?.model ?? {}) };
  if (model.name === undefined && info) model.name = info.name;
  const concepts = indexConcepts(model, elements, relationships, views, folders, resolveIcon);
  const index: ReportIndex = { ...concepts, appearsIn: appearsInOf(concepts.views, pairs) };
  const names = new Map(definitions.map((d) => [d.id, d.name]));
  const propertiesWhere = (where: ReturnType<typeof sql>) =>
    q<PropertyRow>(
      sql`select owner_kind as "ownerKind", owner_id as "ownerId", ord, definition_id as "definitionId", value
        from property_values where workspace_id = ${ws} and ${where}`,
    );

  async function detailOf(chunk: ReportChunk): Promise<ReportDetail> {
    const detail: ReportDetail = {
      documentation: new Map(),
      properties: new Map(),
      conceptOf: new Map(),
      nodesOf: new Map(),
      connectionsOf: new Map(),
      icons: new Map(),
    };
    if (chunk.kind === "model") {
      detail.properties = propertiesOf(names, await propertiesWhere(sql`owner_kind = 'model'`));
      return detail;
    }
    const kind = OWNER_KIND[chunk.kind];
    const ids = chunk.ids;
    const [docs, properties] = await Promise.all([
      q<{ id: string; documentation: string }>(
        sql`select id, documentation from ${TABLE[chunk.kind]}
          where workspace_id = ${ws} and id = ${anyOf(ids)} and documentation is not null`,
      ),
      propertiesWhere(sql`owner_kind = ${kind} and owner_id = ${anyOf(ids)}`),
    ]);
    documentationOf(kind, docs, detail.documentation);
    detail.properties = propertiesOf(names, properties);
    if (chunk.kind !== "views") return detail;
    const [nodes, connections, icons] = await Promise.all([
      q<ModelDocument["nodes"][number]>(
        sql`select n.id, n.view_id as "viewId", n.parent_id as "parentId", n.ord, n.kind, n.element_id as "elementId",
            n.x, n.y, n.w, n.h, n.label, n.documentation, n.i18n, n.style
          from view_nodes n where n.workspace_id = ${ws} and n.view_id = ${anyOf(ids)} order by n.view_id, n.ord`,
      ),
      q<ModelDocument["connections"][number]>(
        sql`select c.id, c.view_id as "viewId", c.ord, c.kind, c.relationship_id as "relationshipId",
            c.source_id as "sourceId", c.target_id as "targetId", c.bendpoints, c.label, c.documentation, c.i18n, c.style
          from connections c where c.workspace_id = ${ws} and c.view_id = ${anyOf(ids)} order by c.view_id, c.ord`,
      ),
      // An element's icon pack: its first value of the system property, as a whole read takes it.
      q<{ ownerId: string; value: string }>(
        sql`select owner_id as "ownerId", value from property_values
          where workspace_id = ${ws} and owner_kind = 'element' and definition_id = ${SYSTEM_ICON_PACK_ID}
            and owner_id in (select element_id from view_nodes
              where workspace_id = ${ws} and view_id = ${anyOf(ids)} and element_id is not null)
          order by owner_id, ord`,
      ),
    ]);
    Object.assign(detail, diagramsOf(nodes, connections));
    for (const icon of icons) if (!detail.icons.has(icon.ownerId)) detail.icons.set(icon.ownerId, icon.value);
    return detail;
  }

  return { index, detailOf };
}
