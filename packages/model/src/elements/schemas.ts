import { z } from "zod";
import { Documentation, Name, PropertiesInput } from "../schemas.ts";

export const ElementTypeInput = z
  .string()
  .min(1)
  .max(100)
  .describe("ArchiMate element type: exchange name (ApplicationComponent) or display name (Application Component)");

export const CreateElementInput = z.strictObject({
  id: z.string().min(1).max(200).optional().describe("Optional identifier (an xs:ID); generated when absent"),
  name: Name.describe("Element name"),
  type: ElementTypeInput,
  documentation: Documentation.optional(),
  properties: PropertiesInput.optional(),
});
export type CreateElementInput = z.infer<typeof CreateElementInput>;

export const UpdateElementInput = z.strictObject({
  name: Name.optional(),
  type: ElementTypeInput.optional(),
  documentation: Documentation.optional(),
  properties: PropertiesInput.optional(),
});
export type UpdateElementInput = z.infer<typeof UpdateElementInput>;

export const ListElementsQuery = z.strictObject({
  type: z.string().max(100).optional().describe("Only elements of this type"),
  name: z.string().max(1000).optional().describe("Case-insensitive substring of the name"),
});
export type ListElementsQuery = z.infer<typeof ListElementsQuery>;

export const Element = z.object({
  id: z.string(),
  type: z.string().describe("Exchange-format type name, e.g. ApplicationComponent"),
  name: z.string(),
  documentation: z.string().nullable(),
  properties: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
});
export type Element = z.infer<typeof Element>;
