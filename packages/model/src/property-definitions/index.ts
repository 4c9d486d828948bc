import type { DbOrTx } from "@ams/db";
import { AppError, first, invalid, notFound } from "@ams/shared";
import { sql } from "drizzle-orm";
import { type RequestContext, requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { assertIdentifierFree } from "../elements/internal.ts";
import { withChange, withChangeResult } from "../history/change.ts";
import { type ExpectedRevision, expectRevision } from "../history/expect.ts";
import type { ChangeResult } from "../history/schemas.ts";
import { newId } from "../ids.ts";
import { type ListWindow, readWindow } from "../list-shape.ts";
import type { PropertyDefinitionPage } from "../pages.ts";
import type { CreatePropertyDefinitionInput, PropertyDefinition, UpdatePropertyDefinitionInput } from "./schemas.ts";

export * from "./schemas.ts";

type DefinitionRow = Omit<PropertyDefinition, "revision"> & { revision: number | string };
const columns = sql`id, name, type, is_system, allowed_values, revision`;
const toDefinition = (row: DefinitionRow): PropertyDefinition => ({ ...row, revision: Number(row.revision) });

/**
 * The allowed values a definition of this type keeps: the list given (checked), the current one when the type stays
 * an enumeration, none for the other types.
 */
function allowedValuesFor(type: string, given: string[] | undefined, current: string[] | null): string[] | null {
  if (type !== "enumeration") {
    if (given) throw invalid("allowed_values", `only an enumeration has allowed values (the type is ${type})`);
    return null;
  }
  const list = given ?? current;
  if (!list) throw invalid("allowed_values", 'an enumeration needs its list of allowed values, e.g. ["Plan", "Run"]');
  const seen = new Set<string>();
  for (const v of list) {
    if (seen.has(v)) throw invalid("allowed_values", `'${v}' is listed twice`);
    seen.add(v);
  }
  return list;
}

export async function listPropertyDefinitions({ ctx }: Verb): Promise<PropertyDefinition[]> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const rows = await ctx.database.rows<DefinitionRow>(
    sql`select ${columns} from property_definitions where workspace_id = ${ws} order by ord`,
  );
  return rows.map(toDefinition);
}

/** One window of the property definitions, read in the database, and how many there are (MCP paging). */
export async function pagePropertyDefinitions({ ctx, input }: Verb<ListWindow>): Promise<PropertyDefinitionPage> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const page = await readWindow<DefinitionRow>(
    ctx.database,
    sql`select ${columns} from property_definitions where workspace_id = ${ws} order by ord`,
    sql`select count(*)::int as n from property_definitions where workspace_id = ${ws}`,
    input,
  );
  return { ...page, items: page.items.map(toDefinition) };
}

async function getRow(
  ctx: RequestContext,
  ws: string,
  id: string,
  on?: Parameters<RequestContext["database"]["rows"]>[1],
) {
  const [row] = await ctx.database.rows<DefinitionRow>(
    sql`select ${columns} from property_definitions where workspace_id = ${ws} and id = ${id}`,
    on,
  );
  if (!row) throw notFound("Property definition", id);
  return row;
}

/** expectRevision for a property definition: refused with the definition as it is now. */
function expectDefinition(ctx: RequestContext, tx: DbOrTx, ws: string, id: string, expected: number | undefined) {
  const target = { table: "property_definitions", workspaceId: ws, id, what: "Property definition" } as const;
  return expectRevision(ctx.database, tx, target, expected, async () => toDefinition(await getRow(ctx, ws, id, tx)));
}

export async function getPropertyDefinition({ ctx, input }: Verb<{ id: string }>): Promise<PropertyDefinition> {
  requireCapability(ctx, "model:read");
  return toDefinition(await getRow(ctx, requireWorkspace(ctx), input.id));
}

async function assertNameFree(
  ctx: RequestContext,
  tx: Parameters<RequestContext["database"]["rows"]>[1],
  ws: string,
  name: string,
  except?: string,
) {
  const [dup] = await ctx.database.rows(
    sql`select 1 from property_definitions where workspace_id = ${ws} and lower(name) = lower(${name})
        ${except ? sql`and id <> ${except}` : sql``}`,
    tx,
  );
  if (dup) throw new AppError("CONFLICT", `A property definition named '${name}' already exists`);
}

export async function createPropertyDefinition({
  ctx,
  input,
}: Verb<CreatePropertyDefinitionInput>): Promise<PropertyDefinition> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  return withChange(ctx, { summary: `Created property definition '${input.name}'` }, async (tx) => {
    const type = input.type ?? "string";
    const allowed = allowedValuesFor(type, input.allowed_values, null);
    await assertNameFree(ctx, tx, ws, input.name);
    const id = input.id ?? newId();
    if (input.id) await assertIdentifierFree(ctx.database, tx, ws, id);
    const rows = await ctx.database.rows<DefinitionRow>(
      sql`insert into property_definitions (workspace_id, id, ord, name, type, allowed_values)
          values (${ws}, ${id}, coalesce((select max(ord) + 1 from property_definitions where workspace_id = ${ws}), 0),
            ${input.name}, ${type}, ${textArray(allowed)})
          returning ${columns}`,
      tx,
    );
    return toDefinition(first(rows, "The inserted property definition"));
  });
}

function refuseSystem(row: DefinitionRow, verb: string) {
  if (row.is_system)
    throw new AppError("CONFLICT", `'${row.name}' is a system property definition and cannot be ${verb}`);
}

/** Changing the type re-checks every stored value against it, so no value is left that does not fit. */
export async function updatePropertyDefinition({
  ctx,
  input,
}: Verb<UpdatePropertyDefinitionInput & { id: string } & ExpectedRevision>): Promise<PropertyDefinition> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  return withChange(ctx, { summary: `Updated property definition '${input.id}'` }, async (tx, change) => {
    await expectDefinition(ctx, tx, ws, input.id, input.expected_revision);
    const cur = await getRow(ctx, ws, input.id, tx);
    change.summary = `Updated property definition '${cur.name}'`;
    refuseSystem(cur, "changed");
    const type = input.type ?? cur.type;
    const allowed = allowedValuesFor(type, input.allowed_values, cur.allowed_values);
    if (input.name && input.name !== cur.name) await assertNameFree(ctx, tx, ws, input.name, cur.id);
    if (type !== cur.type || input.allowed_values) await assertValuesFit(ctx, tx, ws, cur.id, type, allowed);
    const [row] = await ctx.database.rows<DefinitionRow>(
      sql`update property_definitions set name = ${input.name ?? cur.name}, type = ${type},
            allowed_values = ${textArray(allowed)},
            i18n = ${input.name ? sql`nullif(coalesce(i18n, '{}'::jsonb) - 'name', '{}'::jsonb)` : sql`i18n`}
          where workspace_id = ${ws} and id = ${input.id} returning ${columns}`,
      tx,
    );
    if (!row) throw notFound("Property definition", input.id);
    return toDefinition(row);
  });
}

async function assertValuesFit(
  ctx: RequestContext,
  tx: Parameters<RequestContext["database"]["rows"]>[1],
  ws: string,
  id: string,
  type: string,
  allowed: string[] | null,
) {
  const check =
    type === "enumeration" && allowed
      ? sql`not (value = any(${textArray(allowed)}))`
      : type === "number"
        ? sql`value !~ '^\\s*-?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?\\s*$'`
        : type === "boolean"
          ? sql`value not in ('true', 'false')`
          : type === "date"
            ? sql`value !~ '^\\d{4}-\\d{2}-\\d{2}'`
            : sql`false`;
  const [bad] = await ctx.database.rows<{ value: string }>(
    sql`select value from property_values where workspace_id = ${ws} and definition_id = ${id} and ${check} limit 1`,
    tx,
  );
  if (bad && type === "enumeration") {
    throw invalid("allowed_values", `the stored value '${bad.value}' is not in the list; change or remove it first`);
  }
  if (bad)
    throw new AppError("VALIDATION", `type: existing value '${bad.value}' is not a valid ${type}`, {
      errors: [{ path: "type", message: `existing value '${bad.value}' is not a valid ${type}` }],
    });
}

/** Deleting a definition removes its values on every object (foreign-key cascade). */
export async function deletePropertyDefinition({
  ctx,
  input,
}: Verb<{ id: string } & ExpectedRevision>): Promise<ChangeResult> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  return withChangeResult(ctx, { summary: `Deleted property definition '${input.id}'` }, async (tx, change) => {
    await expectDefinition(ctx, tx, ws, input.id, input.expected_revision);
    const cur = await getRow(ctx, ws, input.id, tx);
    change.summary = `Deleted property definition '${cur.name}'`;
    refuseSystem(cur, "deleted");
    await ctx.database.rows(sql`delete from property_definitions where workspace_id = ${ws} and id = ${input.id}`, tx);
  });
}

/** A text[] parameter: the JSON array cast in SQL, so both drivers (postgres.js and PGlite) pass it the same way. */
function textArray(values: string[] | null) {
  return values === null
    ? sql`null::text[]`
    : sql`array(select json_array_elements_text(${JSON.stringify(values)}::json))`;
}
