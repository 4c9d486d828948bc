import { AppError, notFound } from "@ams/shared";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { type RequestContext, requireCapability, requireWorkspace } from "../context.ts";
import { assertIdentifierFree } from "../elements/internal.ts";
import { newId } from "../ids.ts";
import { Identifier } from "../schemas.ts";

export const PropertyTypes = ["string", "boolean", "date", "number", "enumeration"] as const;
export const CreatePropertyDefinitionInput = z.strictObject({
  id: Identifier.optional(),
  name: z.string().min(1).max(1000).describe("Property name, unique in the workspace"),
  type: z.enum(PropertyTypes).optional().describe("Value type (default string)"),
});
export type CreatePropertyDefinitionInput = z.infer<typeof CreatePropertyDefinitionInput>;
export const UpdatePropertyDefinitionInput = CreatePropertyDefinitionInput.omit({ id: true }).partial();
export type UpdatePropertyDefinitionInput = z.infer<typeof UpdatePropertyDefinitionInput>;

type DefinitionRow = { id: string; name: string; type: string; is_system: boolean };
const columns = sql`id, name, type, is_system`;

export async function listPropertyDefinitions({ ctx }: { ctx: RequestContext }) {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  return ctx.database.rows<DefinitionRow>(
    sql`select ${columns} from property_definitions where workspace_id = ${ws} order by ord`,
  );
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

export async function getPropertyDefinition({ ctx, input }: { ctx: RequestContext; input: { id: string } }) {
  requireCapability(ctx, "model:read");
  return getRow(ctx, requireWorkspace(ctx), input.id);
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
}: {
  ctx: RequestContext;
  input: CreatePropertyDefinitionInput;
}) {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  return ctx.database.db.transaction(async (tx) => {
    await assertNameFree(ctx, tx, ws, input.name);
    const id = input.id ?? newId();
    if (input.id) await assertIdentifierFree(ctx.database, tx, ws, id);
    const [row] = await ctx.database.rows<DefinitionRow>(
      sql`insert into property_definitions (workspace_id, id, ord, name, type)
          values (${ws}, ${id}, coalesce((select max(ord) + 1 from property_definitions where workspace_id = ${ws}), 0),
            ${input.name}, ${input.type ?? "string"})
          returning ${columns}`,
      tx,
    );
    return row!;
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
}: {
  ctx: RequestContext;
  input: UpdatePropertyDefinitionInput & { id: string };
}) {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  return ctx.database.db.transaction(async (tx) => {
    const cur = await getRow(ctx, ws, input.id, tx);
    refuseSystem(cur, "changed");
    if (input.name && input.name !== cur.name) await assertNameFree(ctx, tx, ws, input.name, cur.id);
    if (input.type && input.type !== cur.type) await assertValuesFit(ctx, tx, ws, cur.id, input.type);
    const [row] = await ctx.database.rows<DefinitionRow>(
      sql`update property_definitions set name = ${input.name ?? cur.name}, type = ${input.type ?? cur.type},
            i18n = ${input.name ? sql`nullif(coalesce(i18n, '{}'::jsonb) - 'name', '{}'::jsonb)` : sql`i18n`}
          where workspace_id = ${ws} and id = ${input.id} returning ${columns}`,
      tx,
    );
    return row!;
  });
}

async function assertValuesFit(
  ctx: RequestContext,
  tx: Parameters<RequestContext["database"]["rows"]>[1],
  ws: string,
  id: string,
  type: string,
) {
  const check =
    type === "number"
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
  if (bad)
    throw new AppError("VALIDATION", `type: existing value '${bad.value}' is not a valid ${type}`, {
      errors: [{ path: "type", message: `existing value '${bad.value}' is not a valid ${type}` }],
    });
}

/** Deleting a definition removes its values on every object (foreign-key cascade). */
export async function deletePropertyDefinition({ ctx, input }: { ctx: RequestContext; input: { id: string } }) {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  await ctx.database.db.transaction(async (tx) => {
    const cur = await getRow(ctx, ws, input.id, tx);
    refuseSystem(cur, "deleted");
    await ctx.database.rows(sql`delete from property_definitions where workspace_id = ${ws} and id = ${input.id}`, tx);
  });
}
