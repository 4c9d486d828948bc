import { z } from "zod";
import { Documentation, Name, PropertiesInput, Revision } from "../schemas.ts";

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

/** Largest page of GET /api/elements; without `limit` the whole (filtered) list is answered, as before paging. */
export const ELEMENT_PAGE_MAX = 1000;

/**
 * Keyset paging of the element list: `after` is the id of the last element of the previous page, so every page
 * costs the same however deep it is (an offset would make PostgreSQL walk and discard every earlier row).
 */
export const ElementPageQuery = z.strictObject({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(ELEMENT_PAGE_MAX)
    .optional()
    .describe(`At most this many elements (1 to ${ELEMENT_PAGE_MAX}); a shorter page is the last one`),
  after: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe("The id of the last element of the previous page: the page starts after it in model order"),
});
export const ListElementsPageQuery = ListElementsQuery.extend(ElementPageQuery.shape);
export type ListElementsPageQuery = z.infer<typeof ListElementsPageQuery>;

export const Element = z.object({
  id: z.string(),
  type: z.string().describe("Exchange-format type name, e.g. ApplicationComponent"),
  name: z.string(),
  documentation: z.string().nullable(),
  properties: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  revision: Revision,
});
export type Element = z.infer<typeof Element>;

/** The type names in use in the active workspace (GET /api/elements/types, /api/relationships/types). */
export const TypeNames = z.array(z.string());
export type TypeNames = z.infer<typeof TypeNames>;
