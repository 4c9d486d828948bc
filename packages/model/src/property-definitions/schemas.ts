import { z } from "zod";
import { Identifier, Revision } from "../schemas.ts";

export const PropertyTypes = ["string", "boolean", "date", "number", "enumeration"] as const;
/** At most this many allowed values per enumeration, each at most 1,000 characters. */
export const MAX_ALLOWED_VALUES = 1000;
const AllowedValues = z
  .array(z.string().min(1).max(1000))
  .min(1)
  .max(MAX_ALLOWED_VALUES)
  .describe("The values an enumeration allows, in the order offered (required with type enumeration, only with it)");
export const CreatePropertyDefinitionInput = z.strictObject({
  id: Identifier.optional(),
  name: z.string().min(1).max(1000).describe("Property name, unique in the workspace"),
  type: z.enum(PropertyTypes).optional().describe("Value type (default string)"),
  allowed_values: AllowedValues.optional(),
});
export type CreatePropertyDefinitionInput = z.infer<typeof CreatePropertyDefinitionInput>;
export const UpdatePropertyDefinitionInput = CreatePropertyDefinitionInput.omit({ id: true }).partial();
export type UpdatePropertyDefinitionInput = z.infer<typeof UpdatePropertyDefinitionInput>;

/** A property definition as every surface returns it. */
export const PropertyDefinition = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  is_system: z.boolean().describe("System definitions cannot be changed or deleted"),
  allowed_values: z
    .array(z.string())
    .nullable()
    .describe("The values an enumeration allows; null for the other types (and an enumeration without a list)"),
  revision: Revision,
});
export type PropertyDefinition = z.infer<typeof PropertyDefinition>;
