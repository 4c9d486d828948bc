import {
  CreatePropertyDefinitionInput,
  createPropertyDefinition,
  deletePropertyDefinition,
  getPropertyDefinition,
  listPropertyDefinitions,
  UpdatePropertyDefinitionInput,
  updatePropertyDefinition,
} from "@ams/model";
import { createRoute, z } from "@hono/zod-openapi";
import { IdParam, jsonBody, jsonResponse, noContent, problemResponses, type TenantApp } from "./openapi.ts";

const tags = ["Property definitions"];
const Definition = z.object({ id: z.string(), name: z.string(), type: z.string(), is_system: z.boolean() });

export function registerPropertyDefinitionRoutes(app: TenantApp) {
  app.openapi(
    createRoute({
      method: "get",
      path: "/api/property-definitions",
      tags,
      operationId: "listPropertyDefinitions",
      responses: { 200: jsonResponse(z.array(Definition), "Definitions in model order"), ...problemResponses },
    }),
    async (c) => c.json(await listPropertyDefinitions({ ctx: c.var.ctx }), 200),
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/api/property-definitions/{id}",
      tags,
      operationId: "getPropertyDefinition",
      request: { params: IdParam },
      responses: { 200: jsonResponse(Definition, "The definition"), ...problemResponses },
    }),
    async (c) => c.json(await getPropertyDefinition({ ctx: c.var.ctx, input: c.req.valid("param") }), 200),
  );
  app.openapi(
    createRoute({
      method: "post",
      path: "/api/property-definitions",
      tags,
      operationId: "createPropertyDefinition",
      request: jsonBody(CreatePropertyDefinitionInput),
      responses: { 201: jsonResponse(Definition, "Created"), ...problemResponses },
    }),
    async (c) => c.json(await createPropertyDefinition({ ctx: c.var.ctx, input: c.req.valid("json") }), 201),
  );
  app.openapi(
    createRoute({
      method: "put",
      path: "/api/property-definitions/{id}",
      tags,
      operationId: "updatePropertyDefinition",
      request: { params: IdParam, ...jsonBody(UpdatePropertyDefinitionInput) },
      responses: { 200: jsonResponse(Definition, "Updated"), ...problemResponses },
    }),
    async (c) =>
      c.json(
        await updatePropertyDefinition({ ctx: c.var.ctx, input: { ...c.req.valid("json"), ...c.req.valid("param") } }),
        200,
      ),
  );
  app.openapi(
    createRoute({
      method: "delete",
      path: "/api/property-definitions/{id}",
      tags,
      operationId: "deletePropertyDefinition",
      request: { params: IdParam },
      responses: { 204: noContent, ...problemResponses },
    }),
    async (c) => {
      await deletePropertyDefinition({ ctx: c.var.ctx, input: c.req.valid("param") });
      return c.body(null, 204);
    },
  );
}
