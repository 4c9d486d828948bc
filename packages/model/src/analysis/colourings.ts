import { AppError, invalid } from "@ams/shared";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { HEAT_METRICS, parsePalette } from "./heatmap.ts";

export const Colouring = z.object({
  id: z.string(),
  name: z.string(),
  color_by: z.string().describe("A property's name or a metric (relationship_count, impact_count)"),
  palette: z.string().nullable().describe("rag, heat, blues or categories; null: the default for the values"),
  created_at: z.string(),
});
export type Colouring = z.infer<typeof Colouring>;

export const CreateColouringInput = z.strictObject({
  name: z.string().trim().min(1).max(100).describe("What the team calls it, e.g. 'Criticality RAG'"),
  color_by: z.string().trim().min(1).max(200).describe("A property's name or a metric"),
  palette: z.string().max(20).optional().describe("rag, heat, blues or categories"),
});
export type CreateColouringInput = z.infer<typeof CreateColouringInput>;

export const ColouringList = z.array(Colouring);
export type ColouringList = z.infer<typeof ColouringList>;

type Row = { id: string; name: string; color_by: string; palette: string | null; created_at: string | Date };
const toColouring = (r: Row): Colouring => ({
  id: r.id,
  name: r.name,
  color_by: r.color_by,
  palette: r.palette,
  created_at: new Date(r.created_at).toISOString(),
});

/** The workspace's saved colourings, by name: every reader sees them. */
export async function listColourings({ ctx }: Verb): Promise<ColouringList> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const rows = await ctx.database.rows<Row>(
    sql`select id, name, color_by, palette, created_at from colourings where workspace_id = ${ws}
        order by lower(name), created_at`,
  );
  return rows.map(toColouring);
}

/**
 * Saves a colouring under a name (a colouring of the same name, any case, is replaced): the property must exist in
 * the workspace (or be a metric) and the palette be one of the heatmap's, else a 422 naming the field.
 */
export async function saveColouring({ ctx, input }: Verb<CreateColouringInput>): Promise<Colouring> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const body = CreateColouringInput.parse(input);
  const palette = parsePalette(body.palette) ?? null;
  let colorBy = body.color_by;
  if (!(colorBy in HEAT_METRICS)) {
    const [def] = await ctx.database.rows<{ name: string }>(
      sql`select name from property_definitions where workspace_id = ${ws} and lower(name) = lower(${colorBy})
          order by ord limit 1`,
    );
    if (!def) {
      throw invalid(
        "color_by",
        `no property '${colorBy}' in this workspace and no metric of that name (metrics: ${Object.keys(HEAT_METRICS).join(", ")})`,
      );
    }
    colorBy = def.name;
  }
  const [row] = await ctx.database.rows<Row>(
    sql`with gone as (delete from colourings where workspace_id = ${ws} and lower(name) = lower(${body.name}))
        insert into colourings (workspace_id, name, color_by, palette, created_by)
        values (${ws}, ${body.name}, ${colorBy}, ${palette}, ${ctx.userId || null})
        returning id, name, color_by, palette, created_at`,
  );
  if (!row) throw new AppError("NOT_FOUND", `Workspace '${ws}' not found`);
  return toColouring(row);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Deletes a saved colouring; 404 for an unknown id or another workspace's. Views are not touched. */
export async function deleteColouring({ ctx, input }: Verb<{ colouringId: string }>): Promise<void> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const rows = UUID.test(input.colouringId)
    ? await ctx.database.rows<{ id: string }>(
        sql`delete from colourings where workspace_id = ${ws} and id = ${input.colouringId} returning id`,
      )
    : [];
  if (!rows[0]) throw new AppError("NOT_FOUND", `Colouring '${input.colouringId}' not found in this workspace`);
}
