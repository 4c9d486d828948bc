import { ELEMENT_TYPES, invalid } from "@ams/shared";
import { sql } from "drizzle-orm";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { getElementRow } from "../elements/internal.ts";
import { layeredLayout } from "../layout/layered.ts";
import { renderViewSvg } from "../render/render-view.ts";
import type { RenderInput } from "../render/types.ts";
import { anyOf } from "../sql.ts";
import { imageOfSvg, parseImageFormat, type ViewImage } from "../views/picture.ts";
import type { GapQuery, GapResult } from "./gap-schemas.ts";

type Member = { id: string; type: string; name: string };
type Rel = { id: string; type: string; source: string; target: string };

const BAND: Record<string, number> = {
  Motivation: 0,
  Strategy: 1,
  Business: 2,
  Application: 3,
  Technology: 4,
  Physical: 5,
};
const bandOf = new Map(ELEMENT_TYPES.map((t) => [t.name as string, BAND[t.layer]]));
/** The heatmap colours of a difference: added green, removed red, kept grey. */
export const GAP_COLORS = { added: "#7cc47f", removed: "#f08080", kept: "#e0e0e0" } as const;

async function plateau(ctx: Verb["ctx"], ws: string, id: string, path: string) {
  const row = await getElementRow(ctx.database, ws, id);
  if (row.type !== "Plateau") throw invalid(path, `'${row.name}' (${id}) is a ${row.type}, not a Plateau`);
  return row;
}

/**
 * What changes between two plateaus: the elements each is composed of or aggregates, the relationships among them,
 * and the Gap elements associated with both. Read from the model tables in the request.
 */
export async function plateauGap({ ctx, input }: Verb<GapQuery>): Promise<GapResult> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const from = await plateau(ctx, ws, input.from, "from");
  const to = await plateau(ctx, ws, input.to, "to");
  const members = await ctx.database.rows<Member & { plateau: string }>(
    sql`select r.source_id as plateau, e.id, e.type, e.name from relationships r
        join elements e on e.workspace_id = r.workspace_id and e.id = r.target_id
        where r.workspace_id = ${ws} and r.source_id = ${anyOf([from.id, to.id])}
          and r.type in ('Composition', 'Aggregation') and e.type not in ('Plateau', 'Gap')
        order by e.name, e.id`,
  );
  const inFrom = new Map(members.filter((m) => m.plateau === from.id).map((m) => [m.id, strip(m)]));
  const inTo = new Map(members.filter((m) => m.plateau === to.id).map((m) => [m.id, strip(m)]));
  const all = [...new Set([...inFrom.keys(), ...inTo.keys()])];
  const rels = all.length
    ? await ctx.database.rows<Rel>(
        sql`select id, type, source_id as source, target_id as target from relationships
            where workspace_id = ${ws} and source_id = ${anyOf(all)} and target_id = ${anyOf(all)} order by ord`,
      )
    : [];
  const within = (set: Map<string, Member>) => (r: Rel) => set.has(r.source) && set.has(r.target);
  const relFrom = rels.filter(within(inFrom));
  const relTo = rels.filter(within(inTo));
  const gaps = await ctx.database.rows<{ id: string; name: string }>(
    sql`select g.id, g.name from elements g where g.workspace_id = ${ws} and g.type = 'Gap'
          and exists (select 1 from relationships a where a.workspace_id = g.workspace_id and a.type = 'Association'
            and ((a.source_id = g.id and a.target_id = ${from.id}) or (a.target_id = g.id and a.source_id = ${from.id})))
          and exists (select 1 from relationships a where a.workspace_id = g.workspace_id and a.type = 'Association'
            and ((a.source_id = g.id and a.target_id = ${to.id}) or (a.target_id = g.id and a.source_id = ${to.id})))
        order by g.name`,
  );
  const diff = <T extends { id: string }>(a: T[], b: T[]) => {
    const ids = new Set(b.map((x) => x.id));
    return a.filter((x) => !ids.has(x.id));
  };
  const fromEls = [...inFrom.values()];
  const toEls = [...inTo.values()];
  return {
    from: { id: from.id, name: from.name },
    to: { id: to.id, name: to.name },
    elements: { added: diff(toEls, fromEls), removed: diff(fromEls, toEls), kept: diff(fromEls, diff(fromEls, toEls)) },
    relationships: {
      added: diff(relTo, relFrom),
      removed: diff(relFrom, relTo),
      kept: diff(relFrom, diff(relFrom, relTo)),
    },
    gaps,
  };
}

const strip = (m: Member & { plateau: string }): Member => ({ id: m.id, type: m.type, name: m.name });

/**
 * The difference drawn as a view: every element of either plateau laid out by layer, coloured as a heatmap (added,
 * removed, kept) with its legend, and the relationships among them. Nothing is stored.
 */
export async function renderPlateauGap({
  ctx,
  input,
}: Verb<GapQuery & { format?: string; scale?: number }>): Promise<ViewImage> {
  const gap = await plateauGap({ ctx, input });
  const format = parseImageFormat(input.format, "svg");
  const status = new Map<string, keyof typeof GAP_COLORS>();
  const els: Member[] = [];
  for (const kind of ["added", "removed", "kept"] as const) {
    for (const e of gap.elements[kind]) {
      status.set(e.id, kind);
      els.push(e);
    }
  }
  const rels = [...gap.relationships.added, ...gap.relationships.removed, ...gap.relationships.kept];
  const layout = await layeredLayout(
    els.map((e) => ({ id: e.id, w: 120, h: 55, band: bandOf.get(e.type) })),
    rels.map((r) => ({ id: r.id, source: r.source, target: r.target })),
  );
  const data: RenderInput = {
    view: { name: `${gap.from.name} to ${gap.to.name}`, id: null, documentation: null },
    nodes: els.map((e) => {
      const at = layout.positions.get(e.id) ?? { x: 0, y: 0 };
      return {
        id: e.id,
        kind: "element",
        x: at.x,
        y: at.y,
        w: 120,
        h: 55,
        parentId: null,
        label: null,
        style: null,
        element: { type: e.type, name: e.name },
      };
    }),
    connections: rels.map((r) => ({
      id: r.id,
      kind: "relationship",
      sourceId: r.source,
      targetId: r.target,
      bendpoints: layout.bendpoints.get(r.id) ?? null,
      label: null,
      style: null,
      relationship: { type: r.type, name: null, accessType: null, isDirected: null, influenceStrength: null },
    })),
  };
  const fills = new Map([...status].map(([id, kind]) => [id, GAP_COLORS[kind]]));
  const legend = {
    title: `${gap.from.name} to ${gap.to.name}`,
    entries: [
      { label: "added", color: GAP_COLORS.added },
      { label: "removed", color: GAP_COLORS.removed },
      { label: "kept", color: GAP_COLORS.kept },
    ],
  };
  const svg = renderViewSvg(data, { resolveIcon: ctx.resolveIcon, heat: { fills, legend } });
  return imageOfSvg(svg, { format, scale: input.scale });
}
