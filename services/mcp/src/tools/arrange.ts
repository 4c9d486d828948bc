import { AddToViewInput, AddToViewResult, AutoLayoutResult, addToView, autoLayoutView } from "@ams/model";
import { z } from "zod";
import { CREATE, data, defineTool, UPDATE } from "./define.ts";
import { ViewId } from "./fields.ts";

export const arrangeTools = [
  defineTool({
    name: "add_to_view",
    title: "Show elements on a view",
    description:
      "Adds nodes for several elements at once and draws the relationships among them (and to elements already on the " +
      "view) in one call, instead of create_node and create_connection one by one. New nodes are laid out in layers " +
      "(ArchiMate layers top to bottom) in free space below the view's content; layout 'layered' lays out the whole view.",
    input: AddToViewInput.extend({ view_id: ViewId }),
    output: AddToViewResult,
    annotations: CREATE,
    run: async ({ ctx }, input) => data(await addToView({ ctx, input })),
  }),
  defineTool({
    name: "auto_layout_view",
    title: "Lay out a view automatically",
    description:
      "Arranges every node of a view in layers (ELK layered layout): ArchiMate layers from top to bottom (motivation " +
      "and strategy, business, application, technology), few crossings, orthogonal connection routes. Nested nodes " +
      "move with their parents. Check the result with render_view.",
    input: z.strictObject({ view_id: ViewId }),
    output: AutoLayoutResult,
    annotations: UPDATE,
    run: async ({ ctx }, input) => data(await autoLayoutView({ ctx, input })),
  }),
];
