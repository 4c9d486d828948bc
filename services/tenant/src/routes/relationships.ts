import {
  CreateRelationshipInput,
  createRelationship,
  deleteRelationship,
  getRelationship,
  getRelationshipViews,
  ListRelationshipsQuery,
  listRelationshipsJson,
  listRelationshipTypes,
  Relationship,
  UpdateRelationshipInput,
  updateRelationship,
  ViewReference,
} from "@ams/model";
import { registerRoute } from "@ams/shared/http";
import { z } from "@hono/zod-openapi";
import { IdParam, type TenantApp } from "./openapi.ts";

const tags = ["Relationships"];

export function registerRelationshipRoutes(app: TenantApp) {
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/relationships/types",
      tags,
      operationId: "listRelationshipTypes",
      output: { schema: z.array(z.string()), description: "Sorted types present in the model" },
    },
    (c) => listRelationshipTypes({ ctx: c.var.ctx }),
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/relationships",
      tags,
      operationId: "listRelationships",
      query: ListRelationshipsQuery,
      output: { schema: z.array(Relationship), description: "Relationships in model order" },
    },
    (c, { query }) => listRelationshipsJson({ ctx: c.var.ctx, input: query }),
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/relationships/{id}",
      tags,
      operationId: "getRelationship",
      params: IdParam,
      etag: true,
      output: { schema: Relationship, description: "The relationship" },
    },
    (c, { params }) => getRelationship({ ctx: c.var.ctx, input: params }),
  );
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/relationships",
      tags,
      operationId: "createRelationship",
      body: CreateRelationshipInput,
      output: { schema: Relationship, status: 201, description: "Created" },
    },
    (c, { body }) => createRelationship({ ctx: c.var.ctx, input: body }),
  );
  registerRoute(
    app,
    {
      method: "put",
      path: "/api/relationships/{id}",
      tags,
      operationId: "updateRelationship",
      params: IdParam,
      ifMatch: Relationship,
      body: UpdateRelationshipInput,
      output: { schema: Relationship, description: "Updated" },
    },
    (c, { params, body, expectedRevision }) =>
      updateRelationship({ ctx: c.var.ctx, input: { ...body, ...params, expected_revision: expectedRevision } }),
  );
  registerRoute(
    app,
    {
      method: "delete",
      path: "/api/relationships/{id}",
      tags,
      operationId: "deleteRelationship",
      params: IdParam,
      ifMatch: Relationship,
    },
    async (c, { params, expectedRevision }) => {
      await deleteRelationship({ ctx: c.var.ctx, input: { ...params, expected_revision: expectedRevision } });
    },
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/relationships/{id}/views",
      tags,
      operationId: "getRelationshipViews",
      params: IdParam,
      output: { schema: z.array(ViewReference), description: "Views drawing the relationship" },
    },
    (c, { params }) => getRelationshipViews({ ctx: c.var.ctx, input: params }),
  );
}
