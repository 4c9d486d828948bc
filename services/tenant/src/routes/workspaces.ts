import {
  activateWorkspace,
  CreateWorkspaceInput,
  createWorkspace,
  deleteWorkspace,
  getModelInfo,
  listWorkspaces,
  saveModel,
  UpdateWorkspaceInput,
  updateWorkspace,
  Workspace,
} from "@ams/model";
import { AppError } from "@ams/shared";
import { createRoute, z } from "@hono/zod-openapi";
import { IdParam, jsonBody, jsonResponse, noContent, Ok, problemResponses, type TenantApp } from "./openapi.ts";

const tags = ["Workspaces and model"];

export type WorkspaceRouteOptions = {
  /** Creates a workspace from an exchange file (the exchange feature registers it); absent means not supported. */
  createFromFile?: (ctx: Parameters<typeof createWorkspace>[0]["ctx"], input: CreateWorkspaceInput) => Promise<unknown>;
};

export function registerWorkspaceRoutes(app: TenantApp, opts: WorkspaceRouteOptions = {}) {
  app.openapi(
    createRoute({
      method: "get",
      path: "/api/workspaces",
      tags,
      operationId: "listWorkspaces",
      responses: {
        200: jsonResponse(z.array(Workspace), "Workspaces of the active organization"),
        ...problemResponses,
      },
    }),
    async (c) => c.json(await listWorkspaces({ ctx: c.var.ctx }), 200),
  );
  app.openapi(
    createRoute({
      method: "post",
      path: "/api/workspaces",
      tags,
      operationId: "createWorkspace",
      request: jsonBody(CreateWorkspaceInput),
      responses: { 201: jsonResponse(Workspace, "Created and activated"), ...problemResponses },
    }),
    async (c) => {
      const input = c.req.valid("json");
      if (input.path) {
        if (!opts.createFromFile)
          throw new AppError("VALIDATION", "path: creating a workspace from a file is not available");
        return c.json((await opts.createFromFile(c.var.ctx, input)) as z.infer<typeof Workspace>, 201);
      }
      return c.json(await createWorkspace({ ctx: c.var.ctx, input }), 201);
    },
  );
  app.openapi(
    createRoute({
      method: "put",
      path: "/api/workspaces/{id}",
      tags,
      operationId: "updateWorkspace",
      request: { params: IdParam, ...jsonBody(UpdateWorkspaceInput) },
      responses: { 200: jsonResponse(Workspace, "Updated"), ...problemResponses },
    }),
    async (c) =>
      c.json(
        await updateWorkspace({ ctx: c.var.ctx, input: { ...c.req.valid("json"), ...c.req.valid("param") } }),
        200,
      ),
  );
  app.openapi(
    createRoute({
      method: "delete",
      path: "/api/workspaces/{id}",
      tags,
      operationId: "deleteWorkspace",
      request: { params: IdParam },
      responses: { 204: noContent, ...problemResponses },
    }),
    async (c) => {
      await deleteWorkspace({ ctx: c.var.ctx, input: c.req.valid("param") });
      return c.body(null, 204);
    },
  );
  app.openapi(
    createRoute({
      method: "post",
      path: "/api/workspaces/{id}/activate",
      tags,
      operationId: "activateWorkspace",
      request: { params: IdParam },
      responses: { 200: jsonResponse(Workspace, "Now active"), ...problemResponses },
    }),
    async (c) => c.json(await activateWorkspace({ ctx: c.var.ctx, input: c.req.valid("param") }), 200),
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/api",
      tags,
      operationId: "getModelInfo",
      responses: { 200: jsonResponse(Ok, "Active workspace, model metadata and counts"), ...problemResponses },
    }),
    async (c) => c.json(await getModelInfo({ ctx: c.var.ctx }), 200),
  );
  app.openapi(
    createRoute({
      method: "post",
      path: "/api/save",
      tags,
      operationId: "saveModel",
      responses: { 200: jsonResponse(Ok, "Nothing to do: writes are persisted immediately"), ...problemResponses },
    }),
    async (c) => c.json(await saveModel({ ctx: c.var.ctx }), 200),
  );
}
