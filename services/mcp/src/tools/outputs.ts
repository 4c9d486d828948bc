import {
  ChangeResult,
  Element,
  ModelInfo,
  PropertyDefinition,
  Relationship,
  shapedItem,
  ViewConnection,
  ViewDetail,
  ViewNode,
  ViewReference,
  ViewSummary,
  Workspace,
} from "@ams/model";
import { z } from "zod";

/** An enumeration's allowed values beyond this many are left out of list answers (a list may hold 1,000). */
export const LIST_ALLOWED_VALUES_CAP = 100;

/**
 * Shapes of structuredContent: the model's output schemas (packages/model owns them; REST's OpenAPI uses the same),
 * wrapped in the list objects MCP answers with.
 */
const listOf = (key: string, item: z.ZodObject) =>
  z.object({
    [key]: z.array(shapedItem(item)),
    total: z.number().int().describe("How many items matched"),
    omitted: z.number().int().describe("How many matching items are not in this answer (see limit/offset)"),
  });

export const TypeList = z.object({ types: z.array(z.string()).describe("Sorted types present in the model") });
export const ElementList = listOf("elements", Element);
export const RelationshipList = listOf("relationships", Relationship);
export const ViewList = listOf("views", ViewSummary);
export const ViewReferenceList = listOf("views", ViewReference);
export const DefinitionList = z.object({
  property_definitions: z.array(
    PropertyDefinition.extend({
      allowed_values_truncated: z
        .boolean()
        .optional()
        .describe(
          `true when allowed_values was cut at ${LIST_ALLOWED_VALUES_CAP} values (get_property_definition gives them all)`,
        ),
    }),
  ),
  total: z.number().int().describe("How many items matched"),
  omitted: z.number().int().describe("How many matching items are not in this answer (see limit/offset)"),
});
/** What a delete tool answers: its change group (the cascade included in `objects`) and the revision it made. */
export const Deleted = ChangeResult.extend({
  revision: ChangeResult.shape.revision.describe("The workspace's revision after the deletion"),
  summary: ChangeResult.shape.summary.describe("What was deleted, e.g. \"Deleted ApplicationComponent 'CRM'\""),
  objects: ChangeResult.shape.objects.describe(
    "Objects the deletion removed or changed: the object, and what went with it (relationships, nodes, connections, property values)",
  ),
});
export const WorkspaceList = z.object({ workspaces: z.array(Workspace) });
export const ViewpointList = z.object({
  viewpoints: z.array(z.looseObject({ id: z.string(), name: z.string(), elementTypes: z.array(z.string()) })),
});

export {
  Element,
  ModelInfo,
  PropertyDefinition,
  Relationship,
  ViewConnection,
  ViewDetail,
  ViewNode,
  ViewSummary,
  Workspace,
};
