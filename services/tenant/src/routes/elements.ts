import {
  CreateElementInput,
  createElement,
  deleteElement,
  Element,
  getElement,
  getElementRelationships,
  getElementViews,
  ListElementsPageQuery,
  listElementsJson,
  listElementTypes,
  Relationship,
  UpdateElementInput,
  updateElement,
  ViewReference,
} from "@ams/model";
import { registerRoute } from "@ams/shared/http";
import { z } from "@hono/zod-openapi";
import { IdParam, type TenantApp } from "./openapi.ts";

const tags = ["Elements"];

export function registerElementRoutes(app: TenantApp) {
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/elements/types",
      tags,
      operationId: "listElementTypes",
      output: { schema: z.array(z.string()), description: "Sorted types present in the model" },
    },
    (c) => listElementTypes({ ctx: c.var.ctx }),
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/elements",
      tags,
      operationId: "listElements",
      query: ListElementsPageQuery,
      output: {
        schema: z.array(Element),
        description: "Elements in model order; with `limit`, one page (ask for the next with `after` = its last id)",
      },
    },
    (c, { query }) => listElementsJson({ ctx: c.var.ctx, input: query }),
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/elements/{id}",
      tags,
      operationId: "getElement",
      params: IdParam,
      etag: true,
      output: { schema: Element, description: "The element" },
    },
    (c, { params }) => getElement({ ctx: c.var.ctx, input: params }),
  );
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/elements",
      tags,
      operationId: "createElement",
      body: CreateElementInput,
      output: { schema: Element, status: 201, description: "Created" },
    },
    (c, { body }) => createElement({ ctx: c.var.ctx, input: body }),
  );
  registerRoute(
    app,
    {
      method: "put",
      path: "/api/elements/{id}",
      tags,
      operationId: "updateElement",
      params: IdParam,
      body: UpdateElementInput,
      ifMatch: Element,
      output: { schema: Element, description: "Updated" },
    },
    (c, { params, body, expectedRevision }) =>
      updateElement({ ctx: c.var.ctx, input: { ...body, ...params, expected_revision: expectedRevision } }),
  );
  registerRoute(
    app,
    {
      method: "delete",
      path: "/api/elements/{id}",
      tags,
      operationId: "deleteElement",
      params: IdParam,
      ifMatch: Element,
    },
    async (c, { params, expectedRevision }) => {
      await deleteElement({ ctx: c.var.ctx, input: { ...params, expected_revision: expectedRevision } });
    },
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/elements/{id}/relationships",
      tags,
      operationId: "getElementRelationships",
      params: IdParam,
      output: { schema: z.array(Relationship), description: "Relationships touching the element" },
    },
    (c, { params }) => getElementRelationships({ ctx: c.var.ctx, input: params }),
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/elements/{id}/views",
      tags,
      operationId: "getElementViews",
      params: IdParam,
      output: { schema: z.array(ViewReference), description: "Views showing the element" },
    },
    (c, { params }) => getElementViews({ ctx: c.var.ctx, input: params }),
  );
}
