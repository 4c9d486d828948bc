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

export const Limit = z
  .number()
  .int()
  .min(1)
  .max(10_000)
  .default(500)
  .describe("Largest number of items to return (default 500); the answer says how many were left out");
export const Offset = z
  .number()
  .int()
  .min(0)
  .default(0)
  .describe("Number of matching items to skip (for paging, default 0)");

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

/** A window of a list, and how many matching items it left out. */
export function page<T>(items: T[], offset: number, limit: number) {
  const slice = items.slice(offset, offset + limit);
  return { items: slice, total: items.length, omitted: items.length - slice.length };
}
