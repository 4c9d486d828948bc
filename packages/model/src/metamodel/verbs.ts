import {
  allowedRelationships,
  type Concept,
  ELEMENT_TYPES,
  invalid,
  RELATIONSHIP_CONCEPT,
  resolveElementType,
} from "@ams/shared";
import { z } from "zod";
import { requireCapability, type Verb } from "../context.ts";

/** Every element type of the ArchiMate 3.1 metamodel, whether the model uses it or not. */
export const MetamodelElementTypes = z.object({
  element_types: z.array(
    z.object({
      name: z.string().describe("Exchange name, e.g. ApplicationComponent (what type fields take)"),
      label: z.string().describe("Display name, e.g. Application Component"),
      layer: z.string().describe("Strategy, Business, Application, Technology, Physical, Motivation, ..."),
    }),
  ),
});
export type MetamodelElementTypes = z.infer<typeof MetamodelElementTypes>;

export const MetamodelElementTypesQuery = z.strictObject({
  layer: z.string().min(1).max(100).optional().describe("Only the types of this layer (case-insensitive)"),
});

export function listMetamodelElementTypes({
  ctx,
  input,
}: Verb<z.infer<typeof MetamodelElementTypesQuery>>): MetamodelElementTypes {
  requireCapability(ctx, "model:read");
  const layer = input.layer?.toLowerCase();
  const types = ELEMENT_TYPES.filter((t) => !layer || t.layer.toLowerCase() === layer);
  if (layer && types.length === 0) {
    const layers = [...new Set(ELEMENT_TYPES.map((t) => t.layer))].join(", ");
    throw invalid("layer", `'${input.layer}' is not an ArchiMate 3.1 layer; the layers are ${layers}`);
  }
  return { element_types: types.map((t) => ({ name: t.name, label: t.label, layer: t.layer })) };
}

export const AllowedRelationshipsQuery = z.strictObject({
  source_type: z
    .string()
    .min(1)
    .max(200)
    .describe("Element type of the source (exchange or display name), or 'Relationship' for a relationship"),
  target_type: z.string().min(1).max(200).describe("Element type of the target, or 'Relationship'"),
});

export const AllowedRelationships = z.object({
  source_type: z.string(),
  target_type: z.string(),
  allowed: z.array(z.string()).describe("Relationship types ArchiMate 3.1 allows from source to target"),
});
export type AllowedRelationships = z.infer<typeof AllowedRelationships>;

function concept(input: string, path: string): Concept {
  if (input.toLowerCase() === RELATIONSHIP_CONCEPT.toLowerCase()) return RELATIONSHIP_CONCEPT;
  const type = resolveElementType(input);
  if (!type) throw invalid(path, `'${input}' is not an ArchiMate 3.1 element type`, "elementTypes");
  return type;
}

/** The relationship types the ArchiMate 3.1 table allows between two concepts. */
export function getAllowedRelationships({
  ctx,
  input,
}: Verb<z.infer<typeof AllowedRelationshipsQuery>>): AllowedRelationships {
  requireCapability(ctx, "model:read");
  const source = concept(input.source_type, "source_type");
  const target = concept(input.target_type, "target_type");
  return { source_type: source, target_type: target, allowed: [...allowedRelationships(source, target)] };
}
