import { AppError, type FieldError, first, notFound, resolveElementType, resolveRelationshipType } from "@ams/shared";
import { sql } from "drizzle-orm";
import { type RequestContext, requireCapability, type Verb } from "../context.ts";
import { unsafePattern } from "./pattern.ts";
import {
  type DeletedRule,
  ORG_RULE_FIELDS,
  ORG_RULE_TYPES,
  type OrgRuleType,
  type Severity,
  type ValidationRule,
  type ValidationRuleInput,
  type ValidationRuleList,
} from "./schemas.ts";

/** Rules one organization may keep: each runs as one statement per validation. */
export const MAX_ORG_RULES = 100;

/** A rule as stored: its kind's fields in `params`, each already checked and normalised. */
export type StoredRule = {
  id: string;
  type: OrgRuleType;
  severity: Severity;
  enabled: boolean;
  params: Record<string, unknown>;
};

type RuleRow = StoredRule & { created_at: Date | string; updated_at: Date | string };

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();
const toRule = (row: RuleRow): ValidationRule => ({
  id: row.id,
  type: row.type,
  severity: row.severity,
  enabled: row.enabled,
  ...(row.params as Partial<ValidationRule>),
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

const COMMON = new Set(["type", "severity", "enabled"]);
const isOrgRuleType = (t: string): t is OrgRuleType => (ORG_RULE_TYPES as readonly string[]).includes(t);

/**
 * A rule written by a person, checked field by field: an unknown type, element type or relationship type, a field
 * the type does not take (or a misspelt one), a missing field, an unsafe pattern: each named in one 422 listing all
 * of them. Type names are normalised (application-component → ApplicationComponent).
 */
export function checkRule(input: ValidationRuleInput): Omit<StoredRule, "id"> {
  const errors: FieldError[] = [];
  const bad = (path: string, message: string) => errors.push({ path, message });
  const type = input.type;
  if (!isOrgRuleType(type)) {
    throw new AppError("VALIDATION", `type: unknown rule type '${type}' (one of ${ORG_RULE_TYPES.join(", ")})`, {
      errors: [{ path: "type", message: `unknown rule type '${type}': one of ${ORG_RULE_TYPES.join(", ")}` }],
    });
  }
  const fields = ORG_RULE_FIELDS[type];
  const given = input as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (given[key] === undefined || COMMON.has(key) || fields.includes(key)) continue;
    bad(key, `unknown field '${key}' for a ${type} rule (it takes ${fields.join(", ")})`);
  }
  for (const key of fields) {
    if (given[key] === undefined) bad(key, `required for a ${type} rule`);
  }
  const params: Record<string, unknown> = {};
  const elementType = (key: "element_type" | "source_type" | "target_type") => {
    const raw = given[key];
    if (typeof raw !== "string") return;
    const resolved = resolveElementType(raw);
    if (!resolved) bad(key, `unknown element type '${raw}' (see GET /api/elements/types)`);
    else params[key] = resolved;
  };
  if (fields.includes("element_type")) elementType("element_type");
  if (fields.includes("source_type")) elementType("source_type");
  if (fields.includes("target_type")) elementType("target_type");
  if (fields.includes("relationship_type") && typeof input.relationship_type === "string") {
    const resolved = resolveRelationshipType(input.relationship_type);
    if (!resolved) bad("relationship_type", `unknown relationship type '${input.relationship_type}'`);
    else params.relationship_type = resolved;
  }
  if (fields.includes("property") && typeof input.property === "string") {
    const name = input.property.trim();
    if (!name) bad("property", "a property name cannot be blank");
    else params.property = name;
  }
  if (fields.includes("values") && input.values) {
    if (input.values.length === 0) bad("values", "list at least one allowed value");
    else params.values = [...new Set(input.values)];
  }
  if (fields.includes("pattern") && typeof input.pattern === "string") {
    const problem = unsafePattern(input.pattern);
    if (problem) bad("pattern", `the pattern ${problem}`);
    else params.pattern = input.pattern;
  }
  if (fields.includes("depth") && input.depth !== undefined) {
    if (input.depth < 0 || input.depth > 50) bad("depth", `${input.depth} is out of range: 0 (no nesting) to 50`);
    else params.depth = input.depth;
  }
  if (errors.length) {
    throw new AppError("VALIDATION", errors.map((e) => `${e.path}: ${e.message}`).join("; "), { errors });
  }
  return { type, severity: input.severity ?? "warning", enabled: input.enabled ?? true, params };
}

/** The organization the gateway authorized (path :id); a context naming another is not this organization. */
function organizationOf(ctx: RequestContext, id: string): string {
  if (!ctx.organizationId || ctx.organizationId !== id) throw notFound("Organization", id);
  return id;
}

const columns = sql`id, type, severity, enabled, params, created_at, updated_at`;

/** The rules of an organization, in the order they were made: for the validator (enabled ones) and the editor. */
export async function readOrganizationRules(
  ctx: RequestContext,
  organizationId: string,
  onlyEnabled = false,
): Promise<StoredRule[]> {
  return ctx.database.rows<RuleRow>(
    sql`select ${columns} from validation_rules where organization_id = ${organizationId}
        ${onlyEnabled ? sql`and enabled` : sql``} order by ord, created_at`,
  );
}

export async function listValidationRules({
  ctx,
  input,
}: Verb<{ organization_id: string }>): Promise<ValidationRuleList> {
  requireCapability(ctx, "model:read");
  const org = organizationOf(ctx, input.organization_id);
  return { items: (await readOrganizationRules(ctx, org)).map((r) => toRule(r as RuleRow)) };
}

export async function createValidationRule({
  ctx,
  input,
}: Verb<{ organization_id: string; rule: ValidationRuleInput }>): Promise<ValidationRule> {
  requireCapability(ctx, "org:rules");
  const org = organizationOf(ctx, input.organization_id);
  const rule = checkRule(input.rule);
  return ctx.database.db.transaction(async (tx) => {
    // One writer per organization at a time: the count and the next position are read under the lock.
    await ctx.database.rows(sql`select id from organizations where id = ${org} for update`, tx);
    const [count] = await ctx.database.rows<{ n: number; next: number }>(
      sql`select count(*)::int as n, coalesce(max(ord), 0)::int + 1 as next from validation_rules
          where organization_id = ${org}`,
      tx,
    );
    if ((count?.n ?? 0) >= MAX_ORG_RULES) {
      throw new AppError("CONFLICT", `The organization has ${MAX_ORG_RULES} rules, the most it may keep: delete one`);
    }
    const rows = await ctx.database.rows<RuleRow>(
      sql`insert into validation_rules (organization_id, ord, type, severity, enabled, params)
          values (${org}, ${count?.next ?? 1}, ${rule.type}, ${rule.severity}, ${rule.enabled}, ${JSON.stringify(rule.params)}::jsonb)
          returning ${columns}`,
      tx,
    );
    return toRule(first(rows, "the new rule"));
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function updateValidationRule({
  ctx,
  input,
}: Verb<{ organization_id: string; rule_id: string; rule: ValidationRuleInput }>): Promise<ValidationRule> {
  requireCapability(ctx, "org:rules");
  const org = organizationOf(ctx, input.organization_id);
  if (!UUID.test(input.rule_id)) throw notFound("Validation rule", input.rule_id);
  const rule = checkRule(input.rule);
  const rows = await ctx.database.rows<RuleRow>(
    sql`update validation_rules set type = ${rule.type}, severity = ${rule.severity}, enabled = ${rule.enabled},
          params = ${JSON.stringify(rule.params)}::jsonb, updated_at = now()
        where organization_id = ${org} and id = ${input.rule_id} returning ${columns}`,
  );
  if (!rows[0]) throw notFound("Validation rule", input.rule_id);
  return toRule(rows[0]);
}

export async function deleteValidationRule({
  ctx,
  input,
}: Verb<{ organization_id: string; rule_id: string }>): Promise<DeletedRule> {
  requireCapability(ctx, "org:rules");
  const org = organizationOf(ctx, input.organization_id);
  if (!UUID.test(input.rule_id)) throw notFound("Validation rule", input.rule_id);
  const rows = await ctx.database.rows<{ id: string }>(
    sql`delete from validation_rules where organization_id = ${org} and id = ${input.rule_id} returning id`,
  );
  if (!rows[0]) throw notFound("Validation rule", input.rule_id);
  return { id: input.rule_id, deleted: true };
}
