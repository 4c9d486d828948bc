import { z } from "zod";
import { Documentation, Identifier, Name, PropertiesInput } from "../schemas.ts";

const Rgba = z.strictObject({
  r: z.number().int().min(0).max(255),
  g: z.number().int().min(0).max(255),
  b: z.number().int().min(0).max(255),
  a: z.number().int().min(0).max(100).optional(),
});
const Font = z.strictObject({
  name: z.string().max(200).optional(),
  size: z.number().positive().max(200).optional(),
  style: z.string().max(100).optional(),
  color: Rgba.optional(),
});
export const NodeStyle = z.strictObject({
  fill: Rgba.optional(),
  line: Rgba.optional(),
  font: Font.optional(),
  lineWidth: z.number().int().min(0).max(50).optional(),
});
export const ConnectionStyle = z.strictObject({
  line: Rgba.optional(),
  font: Font.optional(),
  lineWidth: z.number().int().min(0).max(50).optional(),
});
const Coord = z.number().int().min(-1_000_000).max(1_000_000);
const Size = z.number().int().min(1).max(1_000_000);
export const Bendpoint = z.strictObject({ x: Coord, y: Coord });

export const CreateViewInput = z.strictObject({
  id: Identifier.optional(),
  name: Name.describe("View name"),
  viewpoint: z.string().max(200).nullable().optional().describe("ArchiMate viewpoint name, see GET /api/viewpoints"),
  documentation: Documentation.optional(),
  properties: PropertiesInput.optional(),
  element_ids: z
    .array(Identifier)
    .min(1)
    .max(500)
    .optional()
    .describe(
      "Elements to show on the new view, with the relationships among them, laid out by layer: the view and its " +
        "content are one change (e.g. a view of an impact analysis' answer)",
    ),
});
export type CreateViewInput = z.infer<typeof CreateViewInput>;
export const UpdateViewInput = CreateViewInput.omit({ id: true, element_ids: true }).partial();
export type UpdateViewInput = z.infer<typeof UpdateViewInput>;

export const CreateNodeInput = z.strictObject({
  id: Identifier.optional(),
  element_id: Identifier.optional().describe("Element shown by the node; omit for a label or container node"),
  kind: z.enum(["element", "label", "container"]).optional().describe("Defaults to element when element_id is given"),
  label: z.string().max(10_000).optional().describe("Text of a label or container node"),
  parent_id: Identifier.nullable().optional().describe("Enclosing node of the same view"),
  x: Coord.optional(),
  y: Coord.optional(),
  w: Size.optional(),
  h: Size.optional(),
  style: NodeStyle.optional(),
});
export type CreateNodeInput = z.infer<typeof CreateNodeInput>;
export const UpdateNodeInput = z.strictObject({
  label: z.string().max(10_000).nullable().optional(),
  parent_id: Identifier.nullable().optional(),
  x: Coord.optional(),
  y: Coord.optional(),
  w: Size.optional(),
  h: Size.optional(),
  style: NodeStyle.nullable().optional(),
});
export type UpdateNodeInput = z.infer<typeof UpdateNodeInput>;

export const CreateConnectionInput = z.strictObject({
  id: Identifier.optional(),
  source: Identifier.describe("Source node (or connection) id in the same view"),
  target: Identifier.describe("Target node (or connection) id in the same view"),
  relationship_id: Identifier.optional().describe("Relationship drawn; omit for a plain line"),
  bendpoints: z.array(Bendpoint).max(1000).optional(),
  label: z.string().max(10_000).optional(),
  style: ConnectionStyle.optional(),
});
export type CreateConnectionInput = z.infer<typeof CreateConnectionInput>;
export const UpdateConnectionInput = z.strictObject({
  bendpoints: z.array(Bendpoint).max(1000).optional(),
  label: z.string().max(10_000).nullable().optional(),
  style: ConnectionStyle.nullable().optional(),
});
export type UpdateConnectionInput = z.infer<typeof UpdateConnectionInput>;

/** A view named by another answer (views showing an element or relationship): without its contents. */
export const ViewReference = z.object({
  id: z.string(),
  name: z.string(),
  viewpoint: z.string().nullable(),
  documentation: z.string().nullable(),
});
export type ViewReference = z.infer<typeof ViewReference>;
export const ViewReferences = z.object({ views: z.array(ViewReference) });
