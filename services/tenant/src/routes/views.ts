import {
  CreateConnectionInput,
  CreateNodeInput,
  CreateViewInput,
  createConnection,
  createNode,
  createView,
  deleteConnection,
  deleteNode,
  deleteView,
  getView,
  listViewpoints,
  listViews,
  UpdateConnectionInput,
  UpdateNodeInput,
  UpdateViewInput,
  updateConnection,
  updateNode,
  updateView,
  ViewConnection,
  ViewDetail,
  ViewNode,
  ViewpointInfo,
  ViewSummary,
} from "@ams/model";
import { registerRoute } from "@ams/shared/http";
import { z } from "@hono/zod-openapi";
import { IdParam, type TenantApp } from "./openapi.ts";

const tags = ["Views"];
const ViewIdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: "id", in: "path" } }),
});
const NodeParams = ViewIdParam.extend({
  nodeId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: "nodeId", in: "path" } }),
});
const ConnParams = ViewIdParam.extend({
  connectionId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: "connectionId", in: "path" } }),
});

export function registerViewRoutes(app: TenantApp) {
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/viewpoints",
      tags,
      operationId: "listViewpoints",
      output: { schema: z.array(ViewpointInfo), description: "The ArchiMate 3.1 viewpoint catalogue" },
    },
    async (c) => [...listViewpoints({ ctx: c.var.ctx })],
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/views",
      tags,
      operationId: "listViews",
      output: { schema: z.array(ViewSummary), description: "Views in model order" },
    },
    (c) => listViews({ ctx: c.var.ctx }),
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/views/{id}",
      tags,
      operationId: "getView",
      params: IdParam,
      etag: true,
      output: { schema: ViewDetail, description: "The view with its node tree and connections" },
    },
    (c, { params }) => getView({ ctx: c.var.ctx, input: params }),
  );
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/views",
      tags,
      operationId: "createView",
      body: CreateViewInput,
      output: { schema: ViewSummary, status: 201, description: "Created" },
    },
    (c, { body }) => createView({ ctx: c.var.ctx, input: body }),
  );
  registerRoute(
    app,
    {
      method: "put",
      path: "/api/views/{id}",
      tags,
      operationId: "updateView",
      params: IdParam,
      ifMatch: ViewSummary,
      body: UpdateViewInput,
      output: { schema: ViewSummary, description: "Updated" },
    },
    (c, { params, body, expectedRevision }) =>
      updateView({ ctx: c.var.ctx, input: { ...body, ...params, expected_revision: expectedRevision } }),
  );
  registerRoute(
    app,
    {
      method: "delete",
      path: "/api/views/{id}",
      tags,
      operationId: "deleteView",
      params: IdParam,
      ifMatch: ViewSummary,
    },
    async (c, { params, expectedRevision }) => {
      await deleteView({ ctx: c.var.ctx, input: { ...params, expected_revision: expectedRevision } });
    },
  );
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/views/{id}/nodes",
      tags,
      operationId: "createNode",
      params: ViewIdParam,
      body: CreateNodeInput,
      output: { schema: ViewNode, status: 201, description: "Created" },
    },
    (c, { params, body }) => createNode({ ctx: c.var.ctx, input: { ...body, view_id: params.id } }),
  );
  registerRoute(
    app,
    {
      method: "put",
      path: "/api/views/{id}/nodes/{nodeId}",
      tags,
      operationId: "updateNode",
      params: NodeParams,
      ifMatch: ViewNode,
      body: UpdateNodeInput,
      output: { schema: ViewNode, description: "Updated" },
    },
    (c, { params, body, expectedRevision }) =>
      updateNode({
        ctx: c.var.ctx,
        input: { ...body, view_id: params.id, id: params.nodeId, expected_revision: expectedRevision },
      }),
  );
  registerRoute(
    app,
    {
      method: "delete",
      path: "/api/views/{id}/nodes/{nodeId}",
      tags,
      operationId: "deleteNode",
      params: NodeParams,
      ifMatch: ViewNode,
    },
    async (c, { params, expectedRevision }) => {
      const input = { view_id: params.id, id: params.nodeId, expected_revision: expectedRevision };
      await deleteNode({ ctx: c.var.ctx, input });
    },
  );
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/views/{id}/connections",
      tags,
      operationId: "createConnection",
      params: ViewIdParam,
      body: CreateConnectionInput,
      output: { schema: ViewConnection, status: 201, description: "Created" },
    },
    (c, { params, body }) => createConnection({ ctx: c.var.ctx, input: { ...body, view_id: params.id } }),
  );
  registerRoute(
    app,
    {
      method: "put",
      path: "/api/views/{id}/connections/{connectionId}",
      tags,
      operationId: "updateConnection",
      params: ConnParams,
      ifMatch: ViewConnection,
      body: UpdateConnectionInput,
      output: { schema: ViewConnection, description: "Updated" },
    },
    (c, { params, body, expectedRevision }) =>
      updateConnection({
        ctx: c.var.ctx,
        input: { ...body, view_id: params.id, id: params.connectionId, expected_revision: expectedRevision },
      }),
  );
  registerRoute(
    app,
    {
      method: "delete",
      path: "/api/views/{id}/connections/{connectionId}",
      tags,
      operationId: "deleteConnection",
      params: ConnParams,
      ifMatch: ViewConnection,
    },
    async (c, { params, expectedRevision }) => {
      const input = { view_id: params.id, id: params.connectionId, expected_revision: expectedRevision };
      await deleteConnection({ ctx: c.var.ctx, input });
    },
  );
}
