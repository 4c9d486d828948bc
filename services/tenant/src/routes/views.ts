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
} from "@ams/model";
import { createRoute, z } from "@hono/zod-openapi";
import { IdParam, jsonBody, jsonResponse, noContent, Ok, problemResponses, type TenantApp } from "./openapi.ts";

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
  app.openapi(
    createRoute({
      method: "get",
      path: "/api/viewpoints",
      tags,
      operationId: "listViewpoints",
      responses: { 200: jsonResponse(z.array(Ok), "The ArchiMate 3.1 viewpoint catalogue"), ...problemResponses },
    }),
    (c) => c.json(listViewpoints({ ctx: c.var.ctx }) as unknown as Record<string, unknown>[], 200),
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/api/views",
      tags,
      operationId: "listViews",
      responses: { 200: jsonResponse(z.array(Ok), "Views in model order"), ...problemResponses },
    }),
    async (c) => c.json(await listViews({ ctx: c.var.ctx }), 200),
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/api/views/{id}",
      tags,
      operationId: "getView",
      request: { params: IdParam },
      responses: { 200: jsonResponse(Ok, "The view with its node tree and connections"), ...problemResponses },
    }),
    async (c) => c.json(await getView({ ctx: c.var.ctx, input: c.req.valid("param") }), 200),
  );
  app.openapi(
    createRoute({
      method: "post",
      path: "/api/views",
      tags,
      operationId: "createView",
      request: jsonBody(CreateViewInput),
      responses: { 201: jsonResponse(Ok, "Created"), ...problemResponses },
    }),
    async (c) => c.json(await createView({ ctx: c.var.ctx, input: c.req.valid("json") }), 201),
  );
  app.openapi(
    createRoute({
      method: "put",
      path: "/api/views/{id}",
      tags,
      operationId: "updateView",
      request: { params: IdParam, ...jsonBody(UpdateViewInput) },
      responses: { 200: jsonResponse(Ok, "Updated"), ...problemResponses },
    }),
    async (c) =>
      c.json(await updateView({ ctx: c.var.ctx, input: { ...c.req.valid("json"), ...c.req.valid("param") } }), 200),
  );
  app.openapi(
    createRoute({
      method: "delete",
      path: "/api/views/{id}",
      tags,
      operationId: "deleteView",
      request: { params: IdParam },
      responses: { 204: noContent, ...problemResponses },
    }),
    async (c) => {
      await deleteView({ ctx: c.var.ctx, input: c.req.valid("param") });
      return c.body(null, 204);
    },
  );
  app.openapi(
    createRoute({
      method: "post",
      path: "/api/views/{id}/nodes",
      tags,
      operationId: "createNode",
      request: { params: ViewIdParam, ...jsonBody(CreateNodeInput) },
      responses: { 201: jsonResponse(Ok, "Created"), ...problemResponses },
    }),
    async (c) =>
      c.json(
        await createNode({ ctx: c.var.ctx, input: { ...c.req.valid("json"), view_id: c.req.valid("param").id } }),
        201,
      ),
  );
  app.openapi(
    createRoute({
      method: "put",
      path: "/api/views/{id}/nodes/{nodeId}",
      tags,
      operationId: "updateNode",
      request: { params: NodeParams, ...jsonBody(UpdateNodeInput) },
      responses: { 200: jsonResponse(Ok, "Updated"), ...problemResponses },
    }),
    async (c) => {
      const p = c.req.valid("param");
      return c.json(
        await updateNode({ ctx: c.var.ctx, input: { ...c.req.valid("json"), view_id: p.id, id: p.nodeId } }),
        200,
      );
    },
  );
  app.openapi(
    createRoute({
      method: "delete",
      path: "/api/views/{id}/nodes/{nodeId}",
      tags,
      operationId: "deleteNode",
      request: { params: NodeParams },
      responses: { 204: noContent, ...problemResponses },
    }),
    async (c) => {
      const p = c.req.valid("param");
      await deleteNode({ ctx: c.var.ctx, input: { view_id: p.id, id: p.nodeId } });
      return c.body(null, 204);
    },
  );
  app.openapi(
    createRoute({
      method: "post",
      path: "/api/views/{id}/connections",
      tags,
      operationId: "createConnection",
      request: { params: ViewIdParam, ...jsonBody(CreateConnectionInput) },
      responses: { 201: jsonResponse(Ok, "Created"), ...problemResponses },
    }),
    async (c) =>
      c.json(
        await createConnection({ ctx: c.var.ctx, input: { ...c.req.valid("json"), view_id: c.req.valid("param").id } }),
        201,
      ),
  );
  app.openapi(
    createRoute({
      method: "put",
      path: "/api/views/{id}/connections/{connectionId}",
      tags,
      operationId: "updateConnection",
      request: { params: ConnParams, ...jsonBody(UpdateConnectionInput) },
      responses: { 200: jsonResponse(Ok, "Updated"), ...problemResponses },
    }),
    async (c) => {
      const p = c.req.valid("param");
      return c.json(
        await updateConnection({
          ctx: c.var.ctx,
          input: { ...c.req.valid("json"), view_id: p.id, id: p.connectionId },
        }),
        200,
      );
    },
  );
  app.openapi(
    createRoute({
      method: "delete",
      path: "/api/views/{id}/connections/{connectionId}",
      tags,
      operationId: "deleteConnection",
      request: { params: ConnParams },
      responses: { 204: noContent, ...problemResponses },
    }),
    async (c) => {
      const p = c.req.valid("param");
      await deleteConnection({ ctx: c.var.ctx, input: { view_id: p.id, id: p.connectionId } });
      return c.body(null, 204);
    },
  );
}
