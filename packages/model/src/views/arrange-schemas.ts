import { z } from "zod";
import { Identifier } from "../schemas.ts";

/** The node and connection shapes the arrange verbs answer with (as get_view's tree nodes, without children). */
export const PlacedNode = z.object({
  id: z.string(),
  element_id: z.string().nullable(),
  x: z.number(),
  y: z.number(),
  w: z.number(),
  h: z.number(),
});
export const DrawnConnection = z.object({
  id: z.string(),
  relationship_id: z.string(),
  source: z.string().describe("Source node id"),
  target: z.string().describe("Target node id"),
});

export const AddToViewInput = z.strictObject({
  element_ids: z
    .array(Identifier)
    .min(1)
    .max(500)
    .describe("Elements to show; those already on the view are not added twice"),
  include_relationships: z
    .boolean()
    .default(true)
    .describe("Also draw every relationship between these elements and the others on the view (default true)"),
  layout: z
    .enum(["append", "layered"])
    .default("append")
    .describe(
      "append (default): the new elements are laid out among themselves and placed in free space below the view's " +
        "content, nothing else moves; layered: the whole view is laid out again (as auto_layout_view)",
    ),
});
export type AddToViewInput = z.infer<typeof AddToViewInput>;

export const AddToViewResult = z.object({
  view_id: z.string(),
  added: z.array(PlacedNode).describe("The nodes created, one per element not yet on the view"),
  already_shown: z.array(z.string()).describe("Element ids that were on the view already"),
  connections: z.array(DrawnConnection).describe("The connections drawn"),
  layout: z.string(),
  revision: z.number().int().describe("The workspace's revision after this change (unchanged when it changed nothing)"),
});
export type AddToViewResult = z.infer<typeof AddToViewResult>;

export const AutoLayoutInput = z.strictObject({});

export const AutoLayoutResult = z.object({
  view_id: z.string(),
  moved: z.number().int().describe("Nodes moved (nested nodes move with their parents)"),
  rerouted: z.number().int().describe("Connections given new bend points"),
  width: z.number().int(),
  height: z.number().int(),
  revision: z.number().int().describe("The workspace's revision after this change (unchanged when it changed nothing)"),
});
export type AutoLayoutResult = z.infer<typeof AutoLayoutResult>;
