import { z } from "zod";

/**
 * Text limits of the model, the same for every way in: REST and MCP inputs (the schemas below) and imported
 * exchange files (the parser). Characters, not bytes.
 */
export const TEXT_LIMITS = { identifier: 200, name: 10_000, documentation: 1_000_000, propertyValue: 100_000 } as const;

/** Shared field schemas of the REST and MCP inputs. */
export const Identifier = z.string().min(1).max(TEXT_LIMITS.identifier);
export const Name = z.string().max(TEXT_LIMITS.name);
export const Documentation = z.string().max(TEXT_LIMITS.documentation).nullable();
/** An object's revision: the workspace revision (change-log sequence number) of its last change; 0 before the log. */
export const Revision = z
  .number()
  .int()
  .min(0)
  .describe("The workspace revision of this object's last change (see GET /api/workspaces/{id}/history)");
export const PropertyValue = z.union([z.string().max(TEXT_LIMITS.propertyValue), z.number(), z.boolean(), z.null()]);
export const PropertiesInput = z
  .record(z.string().min(1).max(1000), PropertyValue)
  .describe("Property values keyed by property definition name (or id); null removes a value on update");
export type PropertiesInput = z.infer<typeof PropertiesInput>;
export type Properties = Record<string, string | number | boolean>;
