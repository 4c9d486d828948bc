import {
  CreateViewInput,
  createView,
  deleteView,
  getView,
  listViews,
  renderView,
  UpdateViewInput,
  updateView,
} from "@ams/model";
import { z } from "zod";
import { CREATE, DELETE, data, defineTool, READ, text, UPDATE } from "./define.ts";
import { described, ViewId } from "./fields.ts";
import { ViewDetail, ViewList, ViewSummary } from "./outputs.ts";

const viewFields = {
  name: "View name, e.g. 'Application Cooperation: Claims'",
  viewpoint: "Optional ArchiMate viewpoint (see list_viewpoints), e.g. 'Application Cooperation'; null or '' for none",
  documentation: "Free-text description of the view; null clears it",
  properties: "Property values keyed by the name of an existing property definition; null removes a value",
} as const;

export const viewTools = [
  defineTool({
    name: "list_views",
    title: "List views",
    description: "Views (diagrams) of the active workspace in model order, without their contents.",
    input: z.strictObject({}),
    output: ViewList,
    annotations: READ,
    run: async ({ ctx }) => data({ views: await listViews({ ctx }) }),
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
    input: described(UpdateViewInput, viewFields).extend({ view_id: ViewId }),
    output: ViewSummary,
    annotations: UPDATE,
    run: async ({ ctx }, { view_id, ...fields }) => data(await updateView({ ctx, input: { ...fields, id: view_id } })),
  }),
  defineTool({
    name: "delete_view",
    title: "Delete a view",
    description: "Deletes a view with its nodes and connections. The elements and relationships stay in the model.",
    input: z.strictObject({ view_id: ViewId }),
    annotations: DELETE,
    run: async ({ ctx }, { view_id }) => {
      await deleteView({ ctx, input: { id: view_id } });
      return text(`Deleted view '${view_id}'; its elements and relationships remain in the model.`);
    },
  }),
  defineTool({
    name: "render_view",
    title: "Render a view as SVG",
    description:
      "Renders a view in ArchiMate notation as an SVG image (returned as an image and as SVG text) to check layout and content.",
    input: z.strictObject({ view_id: ViewId }),
    annotations: READ,
    run: async ({ ctx }, { view_id }) => {
      const svg = await renderView({ ctx, input: { id: view_id } });
      return {
        content: [
          { type: "image", data: Buffer.from(svg, "utf8").toString("base64"), mimeType: "image/svg+xml" },
          { type: "text", text: svg },
        ],
      };
    },
  }),
];
