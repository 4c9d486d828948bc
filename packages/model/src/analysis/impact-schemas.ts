import { z } from "zod";

export const IMPACT_MAX_DEPTH = 6;
/** Past this many affected elements the walk stops and says so: an answer a person or a model can still read. */
export const IMPACT_MAX_ELEMENTS = 5000;

export const ImpactQuery = z.strictObject({
  direction: z
    .enum(["dependents", "dependencies", "both"])
    .default("dependents")
    .describe(
      "dependents (default): what is affected when this element changes or fails (what depends on it); " +
        "dependencies: what it depends on; both",
    ),
  depth: z.coerce
    .number()
    .int()
    .min(1)
    .max(IMPACT_MAX_DEPTH)
    .default(3)
    .describe(`How many relationships away to look, 1 to ${IMPACT_MAX_DEPTH} (default 3)`),
  types: z
    .string()
    .max(500)
    .optional()
    .describe(
      "Only follow these relationship types, comma-separated (e.g. Serving,Realization); default all but Association " +
        "(an association relates, it does not depend)",
    ),
});
export type ImpactQuery = z.input<typeof ImpactQuery>;

export const PathStep = z.object({
  relationship_id: z.string(),
  type: z.string().describe("The relationship's type"),
  source: z.string().describe("The relationship's source element"),
  target: z.string().describe("The relationship's target element"),
});
export type PathStep = z.infer<typeof PathStep>;

export const AffectedElement = z.object({
  id: z.string(),
  type: z.string(),
  name: z.string(),
  distance: z.number().int().describe("Relationships on the shortest path from the analysed element"),
  path: z.array(PathStep).describe("The shortest path from the analysed element to this one, in order"),
  path_types: z.array(z.string()).describe("The relationship types along the path, in order"),
});
export type AffectedElement = z.infer<typeof AffectedElement>;

export const ImpactLayer = z.object({
  layer: z.string().describe("ArchiMate layer (Business, Application, Technology, ...)"),
  elements: z.array(AffectedElement),
});

export const ImpactResult = z.object({
  element: z.object({ id: z.string(), type: z.string(), name: z.string(), layer: z.string() }),
  direction: z.enum(["dependents", "dependencies", "both"]),
  depth: z.number().int(),
  types: z.array(z.string()).nullable().describe("The relationship types followed; null: all"),
  count: z.number().int().describe("How many elements are affected"),
  truncated: z.boolean().describe(`True when the walk stopped at ${IMPACT_MAX_ELEMENTS} elements`),
  layers: z.array(ImpactLayer).describe("The affected elements grouped by layer, layers in ArchiMate order"),
});
export type ImpactResult = z.infer<typeof ImpactResult>;
