import type { Database } from "@ams/db";
import { AppError, invalid } from "@ams/shared";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { computeHeat, parsePalette } from "../analysis/heatmap.ts";
import { type RequestContext, requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { renderInputAtVersion } from "../history/model-at.ts";
import { PictureMemory } from "../render/png/picture-memory.ts";
import { MAX_PNG_PIXELS, rasterizeSvg } from "../render/png/rasterize.ts";
import { renderViewSvg } from "../render/render-view.ts";
import type { SvgLayout } from "../render/types.ts";
import { summarizePicture, type ViewPictureSummary } from "./picture-summary.ts";
import { loadRenderInput } from "./render.ts";

export const ImageFormats = ["png", "svg"] as const;
export const ViewImageQuery = z.strictObject({
  format: z
    .string()
    .max(20)
    .optional()
    .describe("png (a picture to look at) or svg (the drawing as text); default svg over REST, png over MCP"),
  scale: z.coerce
    .number()
    .min(0.1)
    .max(8)
    .optional()
    .describe("PNG only: pixels per view unit, 0.1 to 8 (default 1; 2 for sharp text on high-density screens)"),
  version: z.string().max(100).optional().describe("A version's id: the view as it was then"),
  color_by: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      "A heatmap: colour the elements by this property (its name) or metric (relationship_count, impact_count), " +
        "with a legend; the view's stored colours are not changed",
    ),
  palette: z.string().max(20).optional().describe("rag, heat, blues or categories (default: by the values)"),
});

export type ViewImage = {
  format: (typeof ImageFormats)[number];
  mimeType: string;
  /** The scale a PNG was drawn at (1 for SVG). */
  scale: number;
  /** PNG bytes, or the SVG document. */
  data: Buffer | string;
  width: number;
  height: number;
  summary?: ViewPictureSummary;
};

/** The format as asked (case-insensitive), or a 422 naming the ones there are. */
export function parseImageFormat(format: string | undefined, fallback: ViewImage["format"]): ViewImage["format"] {
  if (format === undefined || format === "") return fallback;
  const f = format.toLowerCase();
  if (f === "png" || f === "svg") return f;
  throw invalid("format", `'${format}' is not an image format of this service; use png or svg`);
}

const SIZE = /<svg [^>]*width="(\d+)" height="(\d+)"/;

/**
 * A view as a picture: SVG in ArchiMate notation, or that SVG drawn as PNG at `scale`; with `summary`, what the
 * picture shows in numbers (elements, overlapping nodes, relationships between shown elements left undrawn).
 */
export async function renderViewImage({
  ctx,
  input,
}: Verb<{
  id: string;
  format: ViewImage["format"];
  scale?: number;
  /** Without a scale: the largest scale up to 1 whose PNG has no side longer than this many pixels. */
  fit?: number;
  summary?: boolean;
  /** A version's id: the view as it was then. */
  version?: string;
  /** A property's name or a metric: the heatmap drawn over the view. */
  color_by?: string;
  palette?: string;
}>): Promise<ViewImage> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const palette = parsePalette(input.palette);
  if (input.color_by && input.version) throw invalid("color_by", "a heatmap colours the current view, not a version");
  if (palette && !input.color_by) throw invalid("palette", "a palette needs color_by");
  // The current view, plain or as a heatmap, is remembered per workspace revision (read before the view, so that what
  // is remembered is never older than its key says; a heatmap's values are the workspace's content too).
  const key = input.version ? undefined : await pictureKey(ctx.database, ws, input, !!ctx.resolveIcon);
  const known = key === undefined ? undefined : pictures.get(key);
  if (known?.icons.every(([value, was]) => iconText(ctx.resolveIcon?.(value)) === was)) return known.image;
  // The heatmap's values are read while the view is.
  const heating = input.color_by ? computeHeat(ctx, ws, input.id, input.color_by, palette) : undefined;
  heating?.catch(() => {});
  const data = input.version
    ? await renderInputAtVersion(ctx, ws, input.id, input.version)
    : await loadRenderInput(ctx.database, ws, input.id);
  // The summary's queries run while the picture is drawn; awaited (and so reported) once it is done.
  const pending =
    input.summary && !input.version ? summarizePicture(ctx.database, ws, data, input.id) : Promise.resolve(undefined);
  pending.catch(() => {});
  const heat = await heating;
  // Plugin icons are enabled and disabled outside the workspace's revisions: every icon value the drawing resolved is
  // resolved again before a remembered picture is answered, and any other answer draws the view anew.
  const icons = new Map<string, string>();
  const resolveIcon =
    ctx.resolveIcon &&
    ((value: string) => {
      const icon = ctx.resolveIcon?.(value);
      icons.set(value, iconText(icon));
      return icon;
    });
  let layout: SvgLayout | undefined;
  const svg = renderViewSvg(data, { resolveIcon, heat, layout: (l) => (layout = l) });
  const image: ViewImage = { ...(await imageOfSvg(svg, input, layout)), summary: await pending };
  if (key !== undefined) {
    const bytes = typeof image.data === "string" ? 2 * image.data.length : image.data.byteLength;
    pictures.set(key, { image, icons: [...icons] }, bytes);
  }
  return image;
}

/**
 * Pictures of current views, by workspace revision, view and what was asked: an assistant looks at a view again and
 * again, and an unchanged view is answered without reading its rows, laying it out or hashing its SVG. Any change to
 * the workspace's content moves its revision (packages/model's change groups), so nothing stale is answered; a change
 * elsewhere in the workspace draws the view anew only when its SVG changed (rasterizeSvg's memory keeps the PNG).
 */
const pictures = new PictureMemory<{ image: ViewImage; icons: [string, string][] }>(32 * 1024 * 1024, 64);

const iconText = (icon: ReturnType<NonNullable<RequestContext["resolveIcon"]>>) => JSON.stringify(icon ?? null);

async function pictureKey(
  database: Database,
  ws: string,
  input: {
    id: string;
    format: string;
    scale?: number;
    fit?: number;
    summary?: boolean;
    color_by?: string;
    palette?: string;
  },
  withIcons: boolean,
): Promise<string | undefined> {
  const [row] = await database.rows<{ revision: string | number }>(
    sql`select revision from workspaces where id = ${ws}`,
  );
  if (!row) return undefined;
  return JSON.stringify([
    ws,
    Number(row.revision),
    input.id,
    input.format,
    input.scale ?? null,
    input.fit ?? null,
    !!input.summary,
    withIcons,
    input.color_by ?? null,
    input.palette?.toLowerCase() ?? null,
  ]);
}

/**
 * An SVG of ours as the image asked for: the SVG itself, or a PNG at `scale` (without one: the largest scale up to 1
 * whose sides stay within `fit` pixels, else 1); a PNG beyond MAX_PNG_PIXELS is a 422 naming the scale that fits.
 */
export async function imageOfSvg(
  svg: string,
  opts: { format: ViewImage["format"]; scale?: number; fit?: number },
  layout?: SvgLayout,
): Promise<ViewImage> {
  const [, w, h] = SIZE.exec(svg) ?? [];
  const svgWidth = Number(w);
  const svgHeight = Number(h);
  if (opts.format === "svg") {
    return { format: "svg", mimeType: "image/svg+xml", scale: 1, data: svg, width: svgWidth, height: svgHeight };
  }
  const scale = opts.scale ?? (opts.fit ? Math.min(1, opts.fit / Math.max(svgWidth, svgHeight)) : 1);
  const pixels = svgWidth * scale * (svgHeight * scale);
  if (pixels > MAX_PNG_PIXELS) {
    const fits = Math.floor(Math.sqrt(MAX_PNG_PIXELS / (svgWidth * svgHeight)) * 100) / 100;
    throw new AppError(
      "VALIDATION",
      `scale: the view is ${svgWidth} x ${svgHeight}; at scale ${scale} the PNG would exceed ${MAX_PNG_PIXELS.toLocaleString("en-US")} pixels (use scale ${fits} or less, or svg)`,
      { errors: [{ path: "scale", message: `at most ${fits} for this view` }] },
    );
  }
  const png = await rasterizeSvg(svg, scale, layout);
  return { format: "png", mimeType: "image/png", scale, data: png.png, width: png.width, height: png.height };
}
