import { AppError } from "@ams/shared";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import type { ModelDocument } from "../exchange/document.ts";
import { renderViewDiffSvg } from "../render/render-diff.ts";
import { imageOfSvg, type ViewImage, ViewImageQuery } from "../views/picture.ts";
import { diffPoints } from "./diff.ts";
import { readModelAt, renderInputOf } from "./model-at.ts";
import { type Point, resolvePoint } from "./points.ts";
import { type ModelDiff, RevisionRef } from "./schemas.ts";

export const ViewDiffImageQuery = z.strictObject({
  format: ViewImageQuery.shape.format,
  scale: ViewImageQuery.shape.scale,
  from: RevisionRef.describe("A version id, a revision number or 'current': the state compared from"),
  to: RevisionRef.optional().describe("A version id, a revision number or 'current' (the default)"),
});
export type ViewDiffImageQuery = z.infer<typeof ViewDiffImageQuery>;

/**
 * A point as the legend names it: “Before lunch” (revision 3), revision 5, current (revision 7); a draft's revision 0
 * is its fork from the base.
 */
function pointWords(point: Point, ref: string, draft: boolean): string {
  if (point.version) return `“${point.version.name}” (revision ${point.revision})`;
  if (draft && point.revision === 0) return "the fork";
  return ref === "current" ? `current (revision ${point.revision})` : `revision ${point.revision}`;
}

/**
 * The view's nodes and connections present at both points whose content changed, as the workspace diff reports it:
 * the node's or connection's own fields, or its element's or relationship's (a rename, a property value).
 */
function changedContent(diff: ModelDiff, viewId: string, doc: ModelDocument): Set<string> {
  const out = new Set<string>();
  const layout = diff.view_layouts.find((v) => v.view_id === viewId);
  for (const n of layout?.nodes.changed ?? []) out.add(n.id);
  for (const c of layout?.connections.changed ?? []) out.add(c.id);
  const elements = new Set(diff.elements.changed.map((e) => e.id));
  const relationships = new Set(diff.relationships.changed.map((r) => r.id));
  for (const n of doc.nodes) if (n.viewId === viewId && n.elementId && elements.has(n.elementId)) out.add(n.id);
  for (const c of doc.connections)
    if (c.viewId === viewId && c.relationshipId && relationships.has(c.relationshipId)) out.add(c.id);
  return out;
}

/**
 * GET /api/views/:id/diff-image: the view at `to` drawn by the renderer, with what was added since `from` green,
 * what was removed red and ghosted (drawn as it was at `from`), what changed or moved amber (a moved node's former
 * outline faint), and a legend. Which objects changed is the workspace diff's answer, so the picture and the list
 * of changes agree. A view that existed at neither point is 404.
 */
export async function renderViewDiffImage({
  ctx,
  input,
}: Verb<{
  id: string;
  format: ViewImage["format"];
  from: string;
  to?: string;
  scale?: number;
  /** Without a scale: the largest scale up to 1 whose PNG has no side longer than this many pixels. */
  fit?: number;
}>): Promise<ViewImage> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const toRef = input.to ?? "current";
  // Points, both states and the diff in one snapshot: a change or a retention compaction committing meanwhile is
  // seen wholly or not at all.
  const { from, to, docs, diff, draft } = await ctx.database.db.transaction(
    async (tx) => {
      const from = await resolvePoint(ctx, ws, "from", input.from, { allowCurrent: true }, tx);
      const to = await resolvePoint(ctx, ws, "to", toRef, { allowCurrent: true }, tx);
      const docs = {
        from: await readModelAt(ctx.database, ws, from.revision, tx),
        to: await readModelAt(ctx.database, ws, to.revision, tx),
      };
      const [draft] = await ctx.database.rows(sql`select 1 from drafts where workspace_id = ${ws}`, tx);
      return { from, to, docs, diff: await diffPoints(ctx, ws, from, to, tx), draft: draft !== undefined };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
  const before = renderInputOf(docs.from, input.id);
  const after = renderInputOf(docs.to, input.id);
  if (!before && !after)
    throw new AppError(
      "NOT_FOUND",
      `View '${input.id}' not found at revision ${from.revision} or at revision ${to.revision}`,
    );
  const { svg } = renderViewDiffSvg(
    {
      from: before,
      to: after,
      changed: changedContent(diff, input.id, docs.to),
      // Words, not an arrow: the PNG's fonts have no arrow glyph.
      caption: `Changes from ${pointWords(from, input.from, draft)} to ${pointWords(to, toRef, draft)}`,
    },
    { resolveIcon: ctx.resolveIcon },
  );
  return imageOfSvg(svg, input);
}
