import {
  CreateConnectionInput,
  CreateNodeInput,
  createConnection,
  createNode,
  deleteConnection,
  deleteNode,
  UpdateConnectionInput,
  UpdateNodeInput,
  updateConnection,
  updateNode,
} from "@ams/model";
import { z } from "zod";
import { CREATE, DELETE, data, defineTool, UPDATE } from "./define.ts";
import { ConnectionId, described, expectedRevision, NodeId, ViewId } from "./fields.ts";
import { Deleted, ViewConnection, ViewNode } from "./outputs.ts";

const geometry = {
  x: "Left edge in view pixels (absolute, also for nested nodes)",
  y: "Top edge in view pixels (absolute, also for nested nodes)",
  w: "Width in pixels",
  h: "Height in pixels",
} as const;

const nodeFields = {
  ...geometry,
  label: "Text of a label or container node",
  parent_id: "Id of an enclosing node of the same view (nesting, e.g. a component inside a node); null for top level",
  style: "Optional colours and font: {fill:{r,g,b,a?}, line:{r,g,b,a?}, font:{name,size,style,color}, lineWidth}",
} as const;

const createNodeFields = {
  ...nodeFields,
  x: `${geometry.x}; when x or y is omitted the node goes in free space (inside parent_id's box when given)`,
  y: `${geometry.y}; when x or y is omitted the node goes in free space (inside parent_id's box when given)`,
  w: "Width in pixels (default 120)",
  h: "Height in pixels (default 55)",
} as const;

const connectionFields = {
  bendpoints: "Optional bend points [{x, y}] in view coordinates",
  label: "Optional text shown on the connection",
  style: "Optional colours and font: {line:{r,g,b,a?}, font:{name,size,style,color}, lineWidth}",
} as const;

export const viewContentTools = [
  defineTool({
    name: "create_node",
    title: "Place an element on a view",
    description:
      "Adds a node to a view: normally an element (element_id) at x, y with size w, h; or a label/container (kind + label). " +
      "Lay views out in layers: business at the top, application in the middle, technology at the bottom.",
    input: described(CreateNodeInput, {
      ...createNodeFields,
      id: "Optional identifier (a valid xs:ID); generated when omitted",
      element_id: "Id of the element the node shows; omit for a label or container node",
      kind: "element (default when element_id is given), label or container",
    }).extend({ view_id: ViewId }),
    output: ViewNode,
    annotations: CREATE,
    run: async ({ ctx }, input) => data(await createNode({ ctx, input })),
  }),
  defineTool({
    name: "update_node",
    title: "Move, resize or restyle a node",
    description: "Changes the given fields of a view node (position, size, label, parent, style) and keeps the others.",
    input: described(UpdateNodeInput, nodeFields).extend({ view_id: ViewId, node_id: NodeId, ...expectedRevision }),
    output: ViewNode,
    annotations: UPDATE,
    run: async ({ ctx }, { node_id, ...fields }) => data(await updateNode({ ctx, input: { ...fields, id: node_id } })),
  }),
  defineTool({
    name: "delete_node",
    title: "Remove a node from a view",
    description:
      "Removes a node, the nodes nested in it and their connections from the view. The element stays in the model.",
    input: z.strictObject({ view_id: ViewId, node_id: NodeId, ...expectedRevision }),
    output: Deleted,
    annotations: DELETE,
    run: async ({ ctx }, { view_id, node_id, expected_revision }) =>
      data(await deleteNode({ ctx, input: { view_id, id: node_id, expected_revision } })),
  }),
  defineTool({
    name: "create_connection",
    title: "Draw a relationship on a view",
    description:
      "Adds a connection between two nodes of a view. To draw a model relationship give relationship_id: its source " +
      "and target elements must be the elements of the source and target nodes. Without relationship_id it is a plain line.",
    input: described(CreateConnectionInput, {
      ...connectionFields,
      id: "Optional identifier (a valid xs:ID); generated when omitted",
      source: "Id of the source node (or connection) in this view, showing the relationship's source element",
      target: "Id of the target node (or connection) in this view, showing the relationship's target element",
      relationship_id: "Id of the relationship drawn (from create_relationship); omit for a plain line",
    }).extend({ view_id: ViewId }),
    output: ViewConnection,
    annotations: CREATE,
    run: async ({ ctx }, input) => data(await createConnection({ ctx, input })),
  }),
  defineTool({
    name: "update_connection",
    title: "Update a connection",
    description: "Changes the bend points, label or style of a connection and keeps the others.",
    input: described(UpdateConnectionInput, connectionFields).extend({
      view_id: ViewId,
      connection_id: ConnectionId,
      ...expectedRevision,
    }),
    output: ViewConnection,
    annotations: UPDATE,
    run: async ({ ctx }, { connection_id, ...fields }) =>
      data(await updateConnection({ ctx, input: { ...fields, id: connection_id } })),
  }),
  defineTool({
    name: "delete_connection",
    title: "Remove a connection from a view",
    description:
      "Removes a connection (and connections attached to it) from the view. The relationship stays in the model.",
    input: z.strictObject({ view_id: ViewId, connection_id: ConnectionId, ...expectedRevision }),
    output: Deleted,
    annotations: DELETE,
    run: async ({ ctx }, { view_id, connection_id, expected_revision }) =>
      data(await deleteConnection({ ctx, input: { view_id, id: connection_id, expected_revision } })),
  }),
];
