import {
  CreateViewInput,
  createView,
  deleteView,
  getView,
  ListShape,
  pageViews,
  renderViewImage,
  shapeItems,
  summaryText,
  UpdateViewInput,
  updateView,
  ViewPictureSummary,
} from "@ams/model";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { CREATE, DELETE, data, defineTool, READ, UPDATE } from "./define.ts";
import { counts, described, expectedRevision, LIST_LIMIT, pageArguments, pagingNote, ViewId } from "./fields.ts";
import { Deleted, ViewDetail, ViewList, ViewSummary } from "./outputs.ts";

const viewFields = {
  name: "View name, e.g. 'Application Cooperation: Claims'",
  viewpoint: "Optional ArchiMate viewpoint (see list_viewpoints), e.g. 'Application Cooperation'; null or '' for none",
  documentation: "Free-text description of the view; null clears it",
  properties: "Property values keyed by the name of an existing property definition; null removes a value",
} as const;

/** Longest side of a PNG drawn without a scale: what common LLM hosts pass on without shrinking it. */
const FIT_PIXELS = 1568;

const VIEW_SHAPE = ListShape(["name", "viewpoint", "documentation", "properties"] as const, ["name"]);

export const viewTools = [
  defineTool({
    name: "list_views",
    title: "List views",
    description:
      "Views (diagrams) of the active workspace in model order, without their contents. " +
      `${pagingNote("views", LIST_LIMIT)} \`summary: true\` gives id and name only; documentation and each ` +
      "property value are cut at 1,000 characters.",
    input: z.strictObject(pageArguments("views", LIST_LIMIT)).extend(VIEW_SHAPE.shape),
    output: ViewList,
    annotations: READ,
    run: async ({ ctx }, { limit, offset, fields, summary }) => {
      const page = await pageViews({ ctx, input: { limit, offset } });
      return data({ views: shapeItems(page.items, { fields, summary, summaryFields: ["name"] }), ...counts(page) });
    },
  }),
  defineTool({
    name: "get_view",
    title: "Get a view",
    description:
      "A view with its node tree (each node: id, element_id, x, y, w, h, children) and its connections " +
      "(source and target are node ids, relationship_id the relationship drawn).",
    input: z.strictObject({ view_id: ViewId }),
    output: ViewDetail,
    annotations: READ,
    run: async ({ ctx }, { view_id }) => data(await getView({ ctx, input: { id: view_id } })),
  }),
  defineTool({
    name: "create_view",
    title: "Create a view",
    description:
      "Creates an empty view; then add elements with create_node and relationships with create_connection, and check the " +
      "result with render_view. The create-viewpoint-view prompt walks through a whole view for one viewpoint.",
    input: described(CreateViewInput, {
      ...viewFields,
      id: "Optional identifier (a valid xs:ID); generated when omitted",
    }),
    output: ViewDetail,
    annotations: CREATE,
    run: async ({ ctx }, input) => data(await createView({ ctx, input })),
  }),
  defineTool({
    name: "update_view",
    title: "Update a view",
    description:
      "Changes the given fields of a view (name, viewpoint, documentation, properties) and keeps the others.",
    input: described(UpdateViewInput, viewFields).extend({ view_id: ViewId, ...expectedRevision }),
    output: ViewSummary,
    annotations: UPDATE,
    run: async ({ ctx }, { view_id, ...fields }) => data(await updateView({ ctx, input: { ...fields, id: view_id } })),
  }),
  defineTool({
    name: "delete_view",
    title: "Delete a view",
    description: "Deletes a view with its nodes and connections. The elements and relationships stay in the model.",
    input: z.strictObject({ view_id: ViewId, ...expectedRevision }),
    output: Deleted,
    annotations: DELETE,
    run: async ({ ctx }, { view_id, expected_revision }) =>
      data(await deleteView({ ctx, input: { id: view_id, expected_revision } })),
  }),
  defineTool({
    name: "render_view",
    title: "Render a view as a picture",
    description:
      "Draws a view in ArchiMate notation so you can look at it: a PNG image by default (format 'svg' gives the SVG " +
      "document as text instead), with a short summary: how many elements it shows, which nodes overlap, and which " +
      "relationships between the shown elements it does not draw.",
    input: z.strictObject({
      view_id: ViewId,
      format: z.enum(["png", "svg"]).default("png").describe("png (default): an image; svg: the SVG document as text"),
      scale: z
        .number()
        .min(0.1)
        .max(4)
        .optional()
        .describe(
          "PNG only: pixels per view unit, 0.1 to 4. Default: 1, or smaller for a view wider or taller than 1568 px " +
            "(hosts shrink larger images anyway); give 1 or 2 to read small text in a large view",
        ),
    }),
    output: ViewPictureSummary.extend({
      format: z.string(),
      scale: z.number().describe("The scale the PNG was drawn at"),
      width: z.number().int().describe("Picture width in pixels (PNG) or view units (SVG)"),
      height: z.number().int(),
    }),
    annotations: READ,
    run: async ({ ctx }, { view_id, format, scale }) => {
      const image = await renderViewImage({
        ctx,
        input: { id: view_id, format, scale, fit: FIT_PIXELS, summary: true },
      });
      const known = answered.get(image);
      if (known) return known;
      const summary = image.summary;
      // Asked for above (summary: true): the verb always answers one then.
      if (!summary) throw new Error("render_view: the picture came without its summary");
      const structured = {
        ...summary,
        format: image.format,
        scale: image.scale,
        width: image.width,
        height: image.height,
      };
      const picture =
        typeof image.data === "string"
          ? { type: "text" as const, text: image.data }
          : { type: "image" as const, data: base64Of(image.data), mimeType: image.mimeType };
      const result: CallToolResult = {
        content: [picture, { type: "text", text: summaryText(summary) }],
        structuredContent: structured,
      };
      answered.set(image, result);
      return result;
    },
  }),
];

/**
 * A remembered picture (renderViewImage answers the same object for an unchanged view) gives the same result object,
 * whose serialized answer tools-call-shortcut.ts keeps: an unchanged view is not serialized again. Held as long as the
 * picture is remembered.
 */
const answered = new WeakMap<object, CallToolResult>();

/** A remembered picture's PNG is the same Buffer every time (renderViewImage), so its base64 text is kept beside it. */
const encoded = new WeakMap<Buffer, string>();
function base64Of(png: Buffer): string {
  let text = encoded.get(png);
  if (text === undefined) {
    text = png.toString("base64");
    encoded.set(png, text);
  }
  return text;
}
