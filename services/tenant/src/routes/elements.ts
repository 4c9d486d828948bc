import {
  CreateElementInput,
  createElement,
  deleteElement,
  Element,
  getElement,
  getElementRelationships,
  getElementViews,
  ListElementsQuery,
  listElements,
  listElementTypes,
  Relationship,
  UpdateElementInput,
  updateElement,
} from "@ams/model";
import { createRoute, z } from "@hono/zod-openapi";
import { IdParam, jsonBody, jsonResponse, noContent, problemResponses, type TenantApp } from "./openapi.ts";

const tags = ["Elements"];
const ViewSummary = z.object({
  id: z.string(),
  name: z.string(),
  viewpoint: z.string().nullable(),
  documentation: z.string().nullable(),
});

export function registerElementRoutes(app: TenantApp) {
  app.openapi(
    createRoute({
      method: "get",
      path: "/api/elements/types",
      tags,
      operationId: "listElementTypes",
      responses: { 200: jsonResponse(z.array(z.string()), "Sorted types present in the model"), ...problemResponses },
    }),
    async (c) => c.json(await listElementTypes({ ctx: c.var.ctx }), 200),
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/api/elements",
      tags,
      operationId: "listElements",
      request: { query: ListElementsQuery },
      responses: { 200: jsonResponse(z.array(Element), "Elements in model order"), ...problemResponses },
    }),
    async (c) => c.json(await listElements({ ctx: c.var.ctx, input: c.req.valid("query") }), 200),
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/api/elements/{id}",
      tags,
      operationId: "getElement",
      request: { params: IdParam },
      responses: { 200: jsonResponse(Element, "The element"), ...problemResponses },
    }),
    async (c) => c.json(await getElement({ ctx: c.var.ctx, input: c.req.valid("param") }), 200),
  );
  app.openapi(
    createRoute({
      method: "post",
      path: "/api/elements",
      tags,
      operationId: "createElement",
      request: jsonBody(CreateElementInput),
      responses: { 201: jsonResponse(Element, "Created"), ...problemResponses },
    }),
    async (c) => c.json(await createElement({ ctx: c.var.ctx, input: c.req.valid("json") }), 201),
  );
  app.openapi(
    createRoute({
      method: "put",
      path: "/api/elements/{id}",
      tags,
      operationId: "updateElement",
      request: { params: IdParam, ...jsonBody(UpdateElementInput) },
      responses: { 200: jsonResponse(Element, "Updated"), ...problemResponses },
    }),
    async (c) =>
      c.json(await updateElement({ ctx: c.var.ctx, input: { ...c.req.valid("json"), ...c.req.valid("param") } }), 200),
  );
  app.openapi(
    createRoute({
      method: "delete",
      path: "/api/elements/{id}",
      tags,
      operationId: "deleteElement",
      request: { params: IdParam },
      responses: { 204: noContent, ...problemResponses },
    }),
    async (c) => {
      await deleteElement({ ctx: c.var.ctx, input: c.req.valid("param") });
      return c.body(null, 204);
    },
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/api/elements/{id}/relationships",
      tags,
      operationId: "getElementRelationships",
      request: { params: IdParam },
      responses: {
        200: jsonResponse(z.array(Relationship), "Relationships touching the element"),
        ...problemResponses,
      },
    }),
    async (c) => c.json(await getElementRelationships({ ctx: c.var.ctx, input: c.req.valid("param") }), 200),
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/api/elements/{id}/views",
      tags,
      operationId: "getElementViews",
      request: { params: IdParam },
      responses: { 200: jsonResponse(z.array(ViewSummary), "Views showing the element"), ...problemResponses },
    }),
    async (c) => c.json(await getElementViews({ ctx: c.var.ctx, input: c.req.valid("param") }), 200),
  );
}
