import { Element, Relationship, Workspace } from "@ams/model";
import { z } from "zod";

/**
 * Shapes of structuredContent. Objects the verbs return with a fixed set of keys reuse the model's schemas; the
 * view parts (whose style objects are open-ended) stay loose so a new optional field never breaks a client.
 */
const PropertyValues = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));

export const ViewSummary = z.looseObject({
  id: z.string(),
  name: z.string(),
  viewpoint: z.string().nullable(),
  documentation: z.string().nullable(),
  properties: PropertyValues,
});

export const ViewNode = z.looseObject({
  id: z.string(),
  kind: z.string().describe("element, label or container"),
  element_id: z.string().nullable(),
  x: z.number(),
  y: z.number(),
  w: z.number(),
  h: z.number(),
  children: z.array(z.unknown()).describe("Nested nodes, same shape"),
});

export const ViewConnection = z.looseObject({
  id: z.string(),
  kind: z.string().describe("relationship or line"),
  relationship_id: z.string().nullable(),
  source: z.string(),
  target: z.string(),
  bendpoints: z.array(z.object({ x: z.number(), y: z.number() })),
});

export const ViewDetail = ViewSummary.extend({ nodes: z.array(ViewNode), connections: z.array(ViewConnection) });

export const PropertyDefinition = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  is_system: z.boolean().describe("System definitions cannot be changed or deleted"),
});

const listOf = (key: string, item: z.ZodType) =>
  z.object({
    [key]: z.array(item),
    total: z.number().int().describe("How many items matched"),
    omitted: z.number().int().describe("How many matching items are not in this answer (see limit/offset)"),
  });

export const TypeList = z.object({ types: z.array(z.string()).describe("Sorted types present in the model") });
export const ElementList = listOf("elements", Element);
export const RelationshipList = listOf("relationships", Relationship);
export const ViewList = z.object({ views: z.array(ViewSummary) });
export const DefinitionList = z.object({ property_definitions: z.array(PropertyDefinition) });
export const WorkspaceList = z.object({ workspaces: z.array(Workspace) });
export const ViewpointList = z.object({
  viewpoints: z.array(z.looseObject({ id: z.string(), name: z.string(), elementTypes: z.array(z.string()) })),
});
export const ModelInfo = z.looseObject({
  workspace: Workspace.nullable(),
  organization_id: z.string(),
  model: z.looseObject({}).nullable(),
  counts: z.record(z.string(), z.number()).nullable(),
});

export { Element, Relationship, Workspace };
