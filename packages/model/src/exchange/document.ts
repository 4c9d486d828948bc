import type {
  Bendpoint,
  ConnectionStyle,
  connections,
  elements,
  folders,
  ModelInfo,
  NodeStyle,
  propertyDefinitions,
  propertyValues,
  relationships,
  viewNodes,
  views,
} from "@ams/db";
import type { FieldError } from "@ams/shared";

/**
 * A whole model as plain rows shaped like the database tables (without workspaceId and revision), in file order: the import
 * inserts the arrays as they are, the export reads them back and serializes them. `ord` carries the file order:
 * per model for elements, relationships, views and property definitions; per view for nodes (depth-first, so nested
 * nodes follow their parent) and connections; per owner for property values; per parent for folders.
 */
export type ElementRow = Omit<typeof elements.$inferSelect, "workspaceId" | "revision">;
export type RelationshipRow = Omit<typeof relationships.$inferSelect, "workspaceId" | "revision">;
export type ViewRow = Omit<typeof views.$inferSelect, "workspaceId" | "revision">;
export type ViewNodeRow = Omit<typeof viewNodes.$inferSelect, "workspaceId" | "revision">;
export type ConnectionRow = Omit<typeof connections.$inferSelect, "workspaceId" | "revision">;
/** The exchange format has no enumeration type: allowed values are not part of an exchanged model. */
export type PropertyDefinitionRow = Omit<
  typeof propertyDefinitions.$inferSelect,
  "workspaceId" | "revision" | "allowedValues"
>;
export type PropertyValueRow = Omit<typeof propertyValues.$inferSelect, "workspaceId" | "revision">;
export type FolderRow = Omit<typeof folders.$inferSelect, "workspaceId" | "revision">;

export type ModelDocument = {
  model: ModelInfo;
  propertyDefinitions: PropertyDefinitionRow[];
  elements: ElementRow[];
  relationships: RelationshipRow[];
  views: ViewRow[];
  nodes: ViewNodeRow[];
  connections: ConnectionRow[];
  properties: PropertyValueRow[];
  folders: FolderRow[];
};

/** Something the import kept, changed or dropped that the user should know about. Same shape as a FieldError. */
export type Warning = FieldError;

/**
 * Exchange-format details of a view node that have no column: kept in the style JSON so export writes them back.
 * (Proposed additions to NodeStyle in @ams/db types.)
 */
export type NodeStyleExt = NodeStyle & {
  /** <viewRef ref="..."/>: the node links to other views (Archi's "diagram model reference"). */
  viewRefs?: string[];
  /** Label nodes: conceptRef and xpathPart attributes. */
  conceptRef?: string;
  xpathPart?: string;
};

/** Exchange-format details of a connection that have no column (proposed additions to ConnectionStyle). */
export type ConnectionStyleExt = ConnectionStyle & {
  viewRefs?: string[];
  sourceAttachment?: Bendpoint;
  targetAttachment?: Bendpoint;
  /** xsi:type="NestingRelationship": a relationship shown by nesting rather than a line. */
  nesting?: boolean;
};

export function emptyDocument(): ModelDocument {
  return {
    model: {},
    propertyDefinitions: [],
    elements: [],
    relationships: [],
    views: [],
    nodes: [],
    connections: [],
    properties: [],
    folders: [],
  };
}
