import {
  CreatePropertyDefinitionInput,
  createPropertyDefinition,
  deletePropertyDefinition,
  getPropertyDefinition,
  listPropertyDefinitions,
  PropertyDefinition,
  UpdatePropertyDefinitionInput,
  updatePropertyDefinition,
} from "@ams/model";
import { registerRoute } from "@ams/shared/http";
import { z } from "@hono/zod-openapi";
import { IdParam, type TenantApp } from "./openapi.ts";

const tags = ["Property definitions"];
const Definition = PropertyDefinition;

export function registerPropertyDefinitionRoutes(app: TenantApp) {
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/property-definitions",
      tags,
      operationId: "listPropertyDefinitions",
      output: { schema: z.array(Definition), description: "Definitions in model order" },
    },
    (c) => listPropertyDefinitions({ ctx: c.var.ctx }),
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/property-definitions/{id}",
      tags,
      operationId: "getPropertyDefinition",
      params: IdParam,
      etag: true,
      output: { schema: Definition, description: "The definition" },
    },
    (c, { params }) => getPropertyDefinition({ ctx: c.var.ctx, input: params }),
  );
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/property-definitions",
      tags,
      operationId: "createPropertyDefinition",
      body: CreatePropertyDefinitionInput,
      output: { schema: Definition, status: 201, description: "Created" },
    },
    (c, { body }) => createPropertyDefinition({ ctx: c.var.ctx, input: body }),
  );
  registerRoute(
    app,
    {
      method: "put",
      path: "/api/property-definitions/{id}",
      tags,
      operationId: "updatePropertyDefinition",
      params: IdParam,
      ifMatch: Definition,
      body: UpdatePropertyDefinitionInput,
      output: { schema: Definition, description: "Updated" },
    },
    (c, { params, body, expectedRevision }) =>
      updatePropertyDefinition({ ctx: c.var.ctx, input: { ...body, ...params, expected_revision: expectedRevision } }),
  );
  registerRoute(
    app,
    {
      method: "delete",
      path: "/api/property-definitions/{id}",
      tags,
      operationId: "deletePropertyDefinition",
      params: IdParam,
      ifMatch: Definition,
    },
    async (c, { params, expectedRevision }) => {
      await deletePropertyDefinition({ ctx: c.var.ctx, input: { ...params, expected_revision: expectedRevision } });
    },
  );
}
