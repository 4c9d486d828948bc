import {
  activateWorkspace,
  CreateWorkspaceInput,
  createWorkspace,
  deleteWorkspace,
  getModelInfo,
  listWorkspaces,
  ModelInfo,
  SaveResult,
  saveModel,
  UpdateWorkspaceInput,
  updateWorkspace,
  Workspace,
} from "@ams/model";
import { AppError } from "@ams/shared";
import { registerRoute } from "@ams/shared/http";
import { z } from "@hono/zod-openapi";
import { IdParam, type TenantApp } from "./openapi.ts";

const tags = ["Workspaces and model"];

export type WorkspaceRouteOptions = {
  /** Creates a workspace from an exchange file (the exchange feature registers it); absent means not supported. */
  createFromFile?: (
    ctx: Parameters<typeof createWorkspace>[0]["ctx"],
    input: CreateWorkspaceInput,
  ) => Promise<Workspace>;
};

export function registerWorkspaceRoutes(app: TenantApp, opts: WorkspaceRouteOptions = {}) {
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/workspaces",
      tags,
      operationId: "listWorkspaces",
      output: { schema: z.array(Workspace), description: "Workspaces of the active organization" },
    },
    (c) => listWorkspaces({ ctx: c.var.ctx }),
  );
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/workspaces",
      tags,
      operationId: "createWorkspace",
      description:
        "Creates a workspace, empty or (with `path`) from an Open Exchange file on the server; a multipart upload " +
        "with the field `file` creates it from the uploaded file.",
      body: CreateWorkspaceInput,
      output: { schema: Workspace, status: 201, description: "Created and activated" },
    },
    async (c, { body }) => {
      if (body.path) {
        if (!opts.createFromFile)
          throw new AppError("VALIDATION", "path: creating a workspace from a file is not available");
        return opts.createFromFile(c.var.ctx, body);
      }
      return createWorkspace({ ctx: c.var.ctx, input: body });
    },
  );
  registerRoute(
    app,
    {
      method: "put",
      path: "/api/workspaces/{id}",
      tags,
      operationId: "updateWorkspace",
      params: IdParam,
      body: UpdateWorkspaceInput,
      output: { schema: Workspace, description: "Updated" },
    },
    (c, { params, body }) => updateWorkspace({ ctx: c.var.ctx, input: { ...body, ...params } }),
  );
  registerRoute(
    app,
    {
      method: "delete",
      path: "/api/workspaces/{id}",
      tags,
      operationId: "deleteWorkspace",
      description:
        "Deletes the workspace and its model. Its open drafts are closed, kept read-only for export until " +
        "HISTORY_RETENTION_DAYS; when there were any, the header X-Drafts-Closed says how many.",
      params: IdParam,
    },
    async (c, { params }) => {
      const { closed_drafts } = await deleteWorkspace({ ctx: c.var.ctx, input: params });
      // Its open drafts were closed (kept read-only for export): said in a header, the answer stays 204.
      if (closed_drafts > 0) c.header("x-drafts-closed", String(closed_drafts));
    },
  );
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/workspaces/{id}/activate",
      tags,
      operationId: "activateWorkspace",
      params: IdParam,
      output: { schema: Workspace, description: "Now active" },
    },
    (c, { params }) => activateWorkspace({ ctx: c.var.ctx, input: params }),
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api",
      tags,
      operationId: "getModelInfo",
      output: { schema: ModelInfo, description: "Active workspace, model metadata and counts" },
    },
    (c) => getModelInfo({ ctx: c.var.ctx }),
  );
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/save",
      tags,
      operationId: "saveModel",
      output: { schema: SaveResult, description: "Nothing to do: writes are persisted immediately" },
    },
    (c) => saveModel({ ctx: c.var.ctx }),
  );
}
