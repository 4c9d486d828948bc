import { z } from "zod";

export const Severity = z.enum(["error", "warning", "info"]);
export type Severity = z.infer<typeof Severity>;

/** The built-in rules, in the order they are reported; documentation_missing is off unless asked for. */
export const BUILTIN_RULES = [
  {
    rule: "relationship_not_allowed",
    severity: "error",
    on: true,
    label: "Relationship not allowed by ArchiMate 3.1",
  },
  { rule: "missing_reference", severity: "error", on: true, label: "Reference to a missing object" },
  { rule: "junction_mixed_types", severity: "error", on: true, label: "Junction mixing relationship types" },
  {
    rule: "element_not_in_viewpoint",
    severity: "error",
    on: true,
    label: "Element not allowed by the view's viewpoint",
  },
  { rule: "junction_one_sided", severity: "warning", on: true, label: "Junction with only incoming or outgoing" },
  { rule: "element_on_no_view", severity: "warning", on: true, label: "Element on no view" },
  { rule: "relationship_on_no_view", severity: "warning", on: true, label: "Relationship on no view" },
  { rule: "empty_view", severity: "warning", on: true, label: "Empty view" },
  { rule: "duplicate_element", severity: "warning", on: true, label: "Possible duplicate element" },
  {
    rule: "nesting_without_relationship",
    severity: "warning",
    on: true,
    label: "Nested element without a relationship",
  },
  { rule: "unused_property_definition", severity: "info", on: true, label: "Unused property definition" },
  { rule: "documentation_missing", severity: "info", on: false, label: "Documentation missing" },
] as const satisfies readonly { rule: string; severity: Severity; on: boolean; label: string }[];
export type BuiltinRule = (typeof BUILTIN_RULES)[number]["rule"];
export const BUILTIN_RULE_IDS: readonly string[] = BUILTIN_RULES.map((r) => r.rule);

export const IssueObject = z.object({
  kind: z
    .enum(["element", "relationship", "view", "node", "connection", "property_definition"])
    .describe("What the issue is about"),
  id: z.string().describe("Its id (a node or connection id for kind node/connection)"),
  view_id: z
    .string()
    .nullable()
    .describe("The view where the issue shows (nesting, viewpoint, a view's reference); null when it is model-wide"),
});

export const ValidationIssue = z.object({
  rule: z.string().describe("The rule's id: a built-in rule or an organization rule's type"),
  rule_id: z.string().nullable().describe("The organization rule's id; null for a built-in rule"),
  severity: Severity,
  object: IssueObject,
  name: z.string().describe("The object's name (or the view's, for a node without one)"),
  message: z.string(),
  fix_hint: z.string().describe("What would resolve it"),
});
export type ValidationIssue = z.infer<typeof ValidationIssue>;

export const ValidationCounts = z.object({
  error: z.number().int(),
  warning: z.number().int(),
  info: z.number().int(),
  total: z.number().int(),
});

export const ValidationResult = z.object({
  issues: z.array(ValidationIssue).describe("Errors first, then warnings, then information; at most `limit`"),
  counts: ValidationCounts.describe("Over every issue found, also those beyond `limit`"),
  truncated: z.boolean().describe("True when there were more issues than `limit`"),
  rules: z
    .array(
      z.object({
        rule: z.string(),
        rule_id: z.string().nullable(),
        label: z.string(),
        severity: Severity,
        count: z.number().int(),
      }),
    )
    .describe("Every rule that ran, with how many issues it found"),
});
export type ValidationResult = z.infer<typeof ValidationResult>;

export const MAX_ISSUES = 100_000;

export const ValidateInput = z.strictObject({
  include: z
    .array(z.string().min(1).max(100))
    .max(50)
    .optional()
    .describe("Built-in rules to run that are off by default, e.g. ['documentation_missing']"),
  exclude: z.array(z.string().min(1).max(100)).max(50).optional().describe("Built-in rules not to run"),
  organization_rules: z.boolean().optional().describe("Apply the organization's enabled rules too (default true)"),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_ISSUES)
    .optional()
    .describe(`Most issues listed (default 1000, at most ${MAX_ISSUES}); the counts cover them all`),
});
export type ValidateInput = z.infer<typeof ValidateInput>;

// ---------------------------------------------------------------- organization rules

export const ORG_RULE_TYPES = [
  "required_property",
  "allowed_values",
  "name_pattern",
  "forbidden_relationship",
  "max_nesting",
] as const;
export type OrgRuleType = (typeof ORG_RULE_TYPES)[number];

/** The fields each rule type takes besides type, severity and enabled. */
export const ORG_RULE_FIELDS: Record<OrgRuleType, readonly string[]> = {
  required_property: ["element_type", "property"],
  allowed_values: ["element_type", "property", "values"],
  name_pattern: ["element_type", "pattern"],
  forbidden_relationship: ["source_type", "relationship_type", "target_type"],
  max_nesting: ["depth"],
};

/** A rule as written (POST, PUT): checked field by field by the verb so that each problem is named. */
export const ValidationRuleInput = z
  .object({
    type: z
      .string()
      .min(1)
      .max(100)
      .describe(`One of ${ORG_RULE_TYPES.join(", ")}`),
    severity: Severity.optional().describe("error, warning (default) or info"),
    enabled: z.boolean().optional().describe("Default true"),
    element_type: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe("An ArchiMate element type, e.g. ApplicationComponent"),
    property: z.string().min(1).max(200).optional().describe("A property's name, e.g. Owner (case ignored)"),
    values: z.array(z.string().max(1000)).max(200).optional().describe("allowed_values: the values allowed"),
    pattern: z.string().max(1000).optional().describe("name_pattern: a regular expression names must match"),
    source_type: z.string().min(1).max(100).optional(),
    relationship_type: z.string().min(1).max(100).optional(),
    target_type: z.string().min(1).max(100).optional(),
    depth: z.number().int().optional().describe("max_nesting: how deep nodes may nest in a view (0 = no nesting)"),
  })
  .catchall(z.unknown());
export type ValidationRuleInput = z.infer<typeof ValidationRuleInput>;

export const ValidationRule = z.object({
  id: z.string(),
  type: z.enum(ORG_RULE_TYPES),
  severity: Severity,
  enabled: z.boolean(),
  element_type: z.string().optional(),
  property: z.string().optional(),
  values: z.array(z.string()).optional(),
  pattern: z.string().optional(),
  source_type: z.string().optional(),
  relationship_type: z.string().optional(),
  target_type: z.string().optional(),
  depth: z.number().int().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ValidationRule = z.infer<typeof ValidationRule>;

export const ValidationRuleList = z.object({ items: z.array(ValidationRule) });
export type ValidationRuleList = z.infer<typeof ValidationRuleList>;

export const DeletedRule = z.object({ id: z.string(), deleted: z.literal(true) });
export type DeletedRule = z.infer<typeof DeletedRule>;
