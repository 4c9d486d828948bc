import {
  analyzeImpact,
  DERIVATION_MAX_LENGTH,
  DerivedResult,
  deriveRelationships,
  GapResult,
  IMPACT_MAX_DEPTH,
  ImpactResult,
  plateauGap,
  ValidateInput,
  ValidationResult,
  validateModel,
} from "@ams/model";
import { z } from "zod";
import { data, defineTool, READ } from "./define.ts";
import { ElementId } from "./fields.ts";

/** Analysis of the model: impact, derived relationships, plateau gaps (the REST routes' verbs). */
export const analysisTools = [
  defineTool({
    name: "analyze_impact",
    title: "What depends on an element (impact analysis)",
    description:
      "The elements affected when an element changes or fails (direction 'dependents', the default), those it " +
      "depends on ('dependencies'), or both, up to `depth` relationships away, each with its shortest path (the " +
      "relationship types along it), grouped by ArchiMate layer. Dependency follows ArchiMate's meaning: serving, " +
      "realization, assignment, triggering, flow and influence carry a change from source to target; composition, " +
      "aggregation, access and specialization from target to source; associations only when listed in relationship_types.",
    input: z.strictObject({
      element_id: ElementId,
      direction: z
        .enum(["dependents", "dependencies", "both"])
        .default("dependents")
        .describe(
          "dependents (default): what is affected when this element changes (what depends on it); dependencies: " +
            "what it depends on; both",
        ),
      depth: z
        .number()
        .int()
        .min(1)
        .max(IMPACT_MAX_DEPTH)
        .default(3)
        .describe(`How many relationships away to look, 1 to ${IMPACT_MAX_DEPTH} (default 3)`),
      relationship_types: z
        .array(z.string().min(1).max(100))
        .max(11)
        .optional()
        .describe("Only follow these relationship types (e.g. ['Serving', 'Realization']); default all"),
    }),
    output: ImpactResult,
    annotations: READ,
    run: async ({ ctx }, { element_id, direction, depth, relationship_types }) =>
      data(
        await analyzeImpact({
          ctx,
          input: { id: element_id, direction, depth, types: relationship_types?.join(",") },
        }),
      ),
  }),

  defineTool({
    name: "derive_relationships",
    title: "Derived relationships of an element",
    description:
      "The relationships ArchiMate 3.1 derives between an element and others through chains of relationships " +
      "walked in either direction (§5.7 and Appendix B). Certain (B.2): structural chains give the weakest " +
      "structural relationship (DR2); a structural relationship with a dependency or dynamic one gives that one, " +
      "whether the second leaves the shared element (DR3, DR5) or enters it (DR4, DR6: what serves a behaviour " +
      "serves the active structure assigned to it); triggering chains (DR7, DR8). Potential (B.3): through a " +
      "specialization either way (PDR1-4), a dependency or flow followed by a structural relationship (PDR5, PDR7), " +
      "and against a structural relationship out of a whole (PDR6, PDR8). Not derivable: associations, two " +
      "dependencies in a row, flow chains, groupings. Each comes with direction (outgoing/incoming), the rules " +
      "applied, its chain and in_model. Nothing is stored: to add one, call create_relationship with its type, " +
      "source and target.",
    input: z.strictObject({
      element_id: ElementId,
      target_id: z
        .string()
        .min(1)
        .max(200)
        .optional()
        .describe("Only relationships derived between the element and this one"),
      max_length: z
        .number()
        .int()
        .min(2)
        .max(DERIVATION_MAX_LENGTH)
        .default(3)
        .describe(`Longest chain to derive from, 2 to ${DERIVATION_MAX_LENGTH} (default 3)`),
    }),
    output: DerivedResult,
    annotations: READ,
    run: async ({ ctx }, { element_id, target_id, max_length }) =>
      data(await deriveRelationships({ ctx, input: { id: element_id, target: target_id, max_length } })),
  }),

  defineTool({
    name: "plateau_gap",
    title: "Compare two plateaus (gap analysis)",
    description:
      "What changes between two Plateau elements: the elements each plateau is composed of or aggregates, as added " +
      "(in the later one only), removed (in the earlier one only) and kept; the relationships among them the same " +
      "way; and the Gap elements associated with both plateaus.",
    input: z.strictObject({
      from_plateau_id: z.string().min(1).max(200).describe("The earlier Plateau's element id"),
      to_plateau_id: z.string().min(1).max(200).describe("The later Plateau's element id"),
    }),
    output: GapResult,
    annotations: READ,
    run: async ({ ctx }, { from_plateau_id, to_plateau_id }) =>
      data(await plateauGap({ ctx, input: { from: from_plateau_id, to: to_plateau_id } })),
  }),

  defineTool({
    name: "validate_model",
    title: "Validate the model (built-in and organization rules)",
    description:
      "Checks the active workspace's model and lists its problems, errors first, each with the rule, severity " +
      "(error, warning, info), the object (kind, id, and the view where it shows), a message and a fix hint. Built-in " +
      "rules: relationship_not_allowed (not in the ArchiMate 3.1 table), missing_reference, junction_mixed_types, " +
      "element_not_in_viewpoint, junction_one_sided, element_on_no_view, relationship_on_no_view, empty_view, " +
      "duplicate_element, nesting_without_relationship, unused_property_definition, and documentation_missing (off " +
      "unless listed in include). The organization's enabled rules (required properties, allowed values, name " +
      "patterns, forbidden relationships, maximum nesting) apply too unless organization_rules is false. Reads only.",
    input: ValidateInput,
    output: ValidationResult,
    annotations: READ,
    run: async ({ ctx }, input) => data(await validateModel({ ctx, input })),
  }),
];
