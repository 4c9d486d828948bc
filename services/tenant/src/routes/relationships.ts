import {
  CreateRelationshipInput,
  createRelationship,
  deleteRelationship,
  getRelationship,
  getRelationshipViews,
  ListRelationshipsQuery,
  listRelationships,
  listRelationshipTypes,
  Relationship,
  UpdateRelationshipInput,
  updateRelationship,
} from "@ams/model";
import { createRoute, z } from "@hono/zod-openapi";
import { IdParam, jsonBody, jsonResponse, noContent, problemResponses, type TenantApp } from "./openapi.ts";

const tags = ["Relationships"];
const ViewSummary = z.object({
  id: z.string(),
  name: z.string(),
  viewpoint: z.string().nullable(),
  documentation: z.string().nullable(),
});

export function registerRelationshipRoutes(app: TenantApp) {
  app.openapi(
    createRoute({
      method: "get",
      path: "/api/relationships/types",
      tags,
      operationId: "listRelationshipTypes",
      responses: { 200: jsonResponse(z.array(z.string()), "Sorted types present in the model"), ...problemResponses },
    }),
    async (c) => c.json(await listRelationshipTypes({ ctx: c.var.ctx }), 200),
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/api/relationships",
      tags,
      operationId: "listRelationships",
      request: { query: ListRelationshipsQuery },
      responses: { 200: jsonResponse(z.array(Relationship), "Relationships in model order"), ...problemResponses },
    }),
    async (c) => c.json(await listRelationships({ ctx: c.var.ctx, input: c.req.valid("query") }), 200),
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/api/relationships/{id}",
      tags,
      operationId: "getRelationship",
      request: { params: IdParam },
      responses: { 200: jsonResponse(Relationship, "The relationship"), ...problemResponses },
    }),
    async (c) => c.json(await getRelationship({ ctx: c.var.ctx, input: c.req.valid("param") }), 200),
  );
  app.openapi(
    createRoute({
      method: "post",
      path: "/api/relationships",
      tags,
      operationId: "createRelationship",
      request: jsonBody(CreateRelationshipInput),
      responses: { 201: jsonResponse(Relationship, "Created"), ...problemResponses },
    }),
    async (c) => c.json(await createRelationship({ ctx: c.var.ctx, input: c.req.valid("json") }), 201),
  );
  app.openapi(
    createRoute({
      method: "put",
      path: "/api/relationships/{id}",
      tags,
      operationId: "updateRelationship",
      request: { params: IdParam, ...jsonBody(UpdateRelationshipInput) },
      responses: { 200: jsonResponse(Relationship, "Updated"), ...problemResponses },
    }),
    async (c) =>
      c.json(
        await updateRelationship({ ctx: c.var.ctx, input: { ...c.req.valid("json"), ...c.req.valid("param") } }),
        200,
      ),
  );
  app.openapi(
    createRoute({
      method: "delete",
      path: "/api/relationships/{id}",
      tags,
      operationId: "deleteRelationship",
      request: { params: IdParam },
      responses: { 204: noContent, ...problemResponses },
    }),
    async (c) => {
      await deleteRelationship({ ctx: c.var.ctx, input: c.req.valid("param") });
      return c.body(null, 204);
    },
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/api/relationships/{id}/views",
      tags,
      operationId: "getRelationshipViews",
      request: { params: IdParam },
      responses: { 200: jsonResponse(z.array(ViewSummary), "Views drawing the relationship"), ...problemResponses },
    }),
    async (c) => c.json(await getRelationshipViews({ ctx: c.var.ctx, input: c.req.valid("param") }), 200),
  );
}
