import { z } from "zod";
import { Documentation, Identifier, Name, PropertiesInput, Revision } from "../schemas.ts";

export const AccessTypes = ["Access", "Read", "Write", "ReadWrite"] as const;
export const AccessType = z.enum(AccessTypes).describe("Only on Access relationships");
export const InfluenceStrength = z
  .string()
  .regex(/^(\+{1,2}|-{1,2}|(10|[0-9]))$/, "must be +, ++, -, -- or a number from 0 to 10")
  .describe("Only on Influence relationships: +, ++, -, -- or 0..10");

const fields = {
  name: Name.nullable().optional(),
  documentation: Documentation.optional(),
  is_directed: z.boolean().optional().describe("Only on Association relationships"),
  access_type: AccessType.optional(),
  influence_strength: InfluenceStrength.optional(),
  properties: PropertiesInput.optional(),
};

export const CreateRelationshipInput = z.strictObject({
  id: Identifier.optional().describe("Optional identifier (an xs:ID); generated when absent"),
  type: z.string().min(1).max(100).describe("Relationship type, e.g. Serving or Serving Relationship"),
  source: Identifier.describe("Source element (or relationship) id"),
  target: Identifier.describe("Target element (or relationship) id"),
  ...fields,
});
export type CreateRelationshipInput = z.infer<typeof CreateRelationshipInput>;

export const UpdateRelationshipInput = z.strictObject({
  type: z.string().min(1).max(100).optional(),
  source: Identifier.optional(),
  target: Identifier.optional(),
  ...fields,
  is_directed: z.boolean().nullable().optional(),
  access_type: AccessType.nullable().optional(),
  influence_strength: InfluenceStrength.nullable().optional(),
});
export type UpdateRelationshipInput = z.infer<typeof UpdateRelationshipInput>;

export const ListRelationshipsQuery = z.strictObject({
  type: z.string().max(100).optional(),
  source_id: z.string().max(200).optional(),
  target_id: z.string().max(200).optional(),
});
export type ListRelationshipsQuery = z.infer<typeof ListRelationshipsQuery>;

export const Relationship = z.object({
  id: z.string(),
  type: z.string(),
  source: z.string(),
  target: z.string(),
  name: z.string().nullable(),
  documentation: z.string().nullable(),
  is_directed: z.boolean().optional(),
  access_type: AccessType.optional(),
  influence_strength: z.string().optional(),
  properties: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  revision: Revision,
});
export type Relationship = z.infer<typeof Relationship>;
