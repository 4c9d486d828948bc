import { z } from "zod";
import { PathStep } from "./impact-schemas.ts";

export const DERIVATION_MAX_LENGTH = 4;

export const DerivedQuery = z.strictObject({
  target: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe("Only relationships derived between the element and this one (either way round)"),
  max_length: z.coerce
    .number()
    .int()
    .min(2)
    .max(DERIVATION_MAX_LENGTH)
    .default(3)
    .describe(`Longest chain of relationships to derive from, 2 to ${DERIVATION_MAX_LENGTH} (default 3)`),
});
export type DerivedQuery = z.input<typeof DerivedQuery>;

const ElementBrief = z.object({ id: z.string(), type: z.string(), name: z.string(), layer: z.string() });

export const DerivedRelationship = z.object({
  type: z.string().describe("The derived relationship's type"),
  direction: z
    .enum(["outgoing", "incoming"])
    .describe("outgoing: from the element to the other one; incoming: from the other one to the element"),
  source: z.string().describe("The derived relationship's source element id"),
  target: ElementBrief.describe("The derived relationship's target element"),
  other: ElementBrief.describe(
    "The element at the chain's other end (the target when outgoing, the source when incoming)",
  ),
  certainty: z
    .enum(["certain", "potential"])
    .describe("certain: valid in every model (ArchiMate 3.1 B.2); potential: may hold, depending on the model (B.3)"),
  rules: z
    .array(z.string())
    .describe(
      "The Appendix B rules applied along the chain, in order (DR1-DR8 certain, PDR1-PDR8 potential, junction)",
    ),
  chain: z
    .array(PathStep)
    .describe(
      "The relationships it is derived from, in walking order from the element, each with its own source and target " +
        "(a certain chain first, then the shortest)",
    ),
  chain_count: z.number().int().describe("How many chains derive it"),
  in_model: z.boolean().describe("A relationship of this type between the two already is in the model"),
  derived: z.literal(true).describe("Derived relationships are answers, never stored unless added"),
});
export type DerivedRelationship = z.infer<typeof DerivedRelationship>;

export const DerivedResult = z.object({
  element: z.object({ id: z.string(), type: z.string(), name: z.string() }),
  max_length: z.number().int(),
  count: z.number().int(),
  truncated: z.boolean().describe("True when the walk stopped at its limit of chains"),
  relationships: z.array(DerivedRelationship).describe("Certain ones first, then by target name"),
});
export type DerivedResult = z.infer<typeof DerivedResult>;
