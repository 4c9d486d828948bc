import { z } from "zod";

/** Shared field schemas of the REST and MCP inputs. */
export const Identifier = z.string().min(1).max(200);
export const Name = z.string().max(10_000);
export const Documentation = z.string().max(1_000_000).nullable();
export const PropertyValue = z.union([z.string().max(100_000), z.number(), z.boolean(), z.null()]);
export const PropertiesInput = z
  .record(z.string().min(1).max(1000), PropertyValue)
  .describe("Property values keyed by property definition name (or id); null removes a value on update");
export type PropertiesInput = z.infer<typeof PropertiesInput>;
export type Properties = Record<string, string | number | boolean>;
