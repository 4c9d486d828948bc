import { Identifier } from "@ams/model";
import { z } from "zod";

/**
 * Identifier arguments of the tools. They carry the REST rules (Identifier) and only add wording for an assistant.
 */
export const ElementId = Identifier.describe(
  "Id of an element in the active workspace (from list_elements or create_element)",
);
export const RelationshipId = Identifier.describe(
  "Id of a relationship in the active workspace (from list_relationships or create_relationship)",
);
export const ViewId = Identifier.describe("Id of a view in the active workspace (from list_views or create_view)");
export const NodeId = Identifier.describe("Id of a node of that view (from get_view or create_node)");
export const ConnectionId = Identifier.describe("Id of a connection of that view (from get_view or create_connection)");
export const DefinitionId = Identifier.describe("Id of a property definition (from list_property_definitions)");
export const WorkspaceId = z
  .string()
  .min(1)
  .max(200)
  .describe("Id of a workspace of your organization (from list_workspaces)");

/**
 * The optional `expected_revision` of every tool that updates or deletes one object: optimistic concurrency, as
 * If-Match is on REST.
 */
export const expectedRevision = {
  expected_revision: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      "The object's revision as you last read it (its `revision` field): the change is made only if nobody changed " +
        "the object since; otherwise a tool error gives the object as it is now, to merge your change into and retry " +
        "with its revision. Omit to change it whatever its revision",
    ),
};

/** The page size of the model lists (list_elements, list_relationships, list_views). */
export const LIST_LIMIT = { default: 500, max: 10_000 } as const;

/** `limit` and `offset` of a paged list tool, with the default and the maximum stated for the assistant. */
export function pageArguments(noun: string, size: { default: number; max: number }) {
  return {
    limit: z
      .number()
      .int()
      .min(1)
      .max(size.max)
      .default(size.default)
      .describe(
        `Largest number of ${noun} to return (default ${size.default.toLocaleString("en")}, at most ` +
          `${size.max.toLocaleString("en")}); the answer's omitted says how many more match`,
      ),
    offset: z
      .number()
      .int()
      .min(0)
      .default(0)
      .describe(`Number of matching ${noun} to skip (for paging, default 0): the next page starts at offset + limit`),
  };
}

/** The sentence a paged tool's description ends with. */
export const pagingNote = (noun: string, size: { default: number; max: number }) =>
  `Paged: at most \`limit\` ${noun} (default ${size.default.toLocaleString("en")}, at most ` +
  `${size.max.toLocaleString("en")}) from \`offset\`; \`total\` and \`omitted\` say how many match and are left out.`;

/**
 * The same object schema with MCP-facing descriptions on the named fields: validation stays exactly the REST
 * schema's, only the wording an assistant reads is added.
 */
export function described<S extends z.ZodObject>(
  schema: S,
  descriptions: Partial<Record<keyof S["shape"] & string, string>>,
): S {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, text] of Object.entries(descriptions) as [string, string][]) {
    const field = schema.shape[key] as z.ZodType | undefined;
    if (!field) throw new Error(`described(): no field '${key}'`);
    shape[key] = field.describe(text);
  }
  return schema.extend(shape) as unknown as S;
}

/** The counts of a list answer: how many matched, and how many of those this answer leaves out. */
export const counts = (page: { items: readonly unknown[]; total: number }) => ({
  total: page.total,
  omitted: page.total - page.items.length,
});
