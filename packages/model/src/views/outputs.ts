import { z } from "zod";
import { Revision } from "../schemas.ts";

/**
 * What the view verbs answer. Objects with a fixed set of keys are closed in the model; the view parts whose style
 * objects are open-ended stay loose, so a new optional field never breaks a client (REST or MCP).
 */
const PropertyValues = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));

export const ViewSummary = z.looseObject({
  id: z.string(),
  name: z.string(),
  viewpoint: z.string().nullable(),
  documentation: z.string().nullable(),
  properties: PropertyValues,
  revision: Revision,
});

export const ViewNode = z.looseObject({
  id: z.string(),
  kind: z.string().describe("element, label or container"),
  element_id: z.string().nullable(),
  x: z.number(),
  y: z.number(),
  w: z.number(),
  h: z.number(),
  revision: Revision,
  children: z.array(z.unknown()).describe("Nested nodes, same shape"),
});

export const ViewConnection = z.looseObject({
  id: z.string(),
  kind: z.string().describe("relationship or line"),
  relationship_id: z.string().nullable(),
  source: z.string(),
  target: z.string(),
  bendpoints: z.array(z.object({ x: z.number(), y: z.number() })),
  revision: Revision,
});

export const ViewDetail = ViewSummary.extend({ nodes: z.array(ViewNode), connections: z.array(ViewConnection) });

export type ViewSummary = z.infer<typeof ViewSummary>;
export type ViewDetail = z.infer<typeof ViewDetail>;

/** One ArchiMate 3.1 viewpoint as listViewpoints answers it. */
export const ViewpointInfo = z.object({
  id: z.string(),
  key: z.string(),
  archiId: z.string(),
  name: z.string(),
  allowsAllElementTypes: z.boolean(),
  elementTypes: z.array(z.string()).readonly(),
  relationshipTypes: z.array(z.string()).readonly(),
});
export type ViewpointInfo = z.infer<typeof ViewpointInfo>;
