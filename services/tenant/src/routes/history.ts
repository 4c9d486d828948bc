import {
  ChangeResult,
  CreateVersionInput,
  createVersion,
  DiffQuery,
  deleteVersion,
  diffRevisions,
  listVersions,
  ModelDiff,
  ObjectRestoreInput,
  type RequestContext,
  RestoreInput,
  restoreObject,
  restoreVersion,
  revertChange,
  Version,
} from "@ams/model";
import { AppError } from "@ams/shared";
import { registerRoute } from "@ams/shared/http";
import { z } from "@hono/zod-openapi";
import { IdParam, type TenantApp } from "./openapi.ts";

const tags = ["History"];

/** The workspace the gateway authorized (path :id); the context names it, anything else is not this workspace. */
function inWorkspace(ctx: RequestContext, id: string): RequestContext {
  if (ctx.workspaceId !== id) throw new AppError("NOT_FOUND", `Workspace '${id}' not found`);
  return ctx;
}

const VersionParams = z.object({ id: z.string(), versionId: z.string().min(1).max(100) });
const RevisionParams = z.object({ id: z.string(), revision: z.coerce.number().int().min(1) });

export function registerHistoryRoutes(app: TenantApp) {
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/workspaces/{id}/versions",
      tags,
      operationId: "createVersion",
      description: "Names the workspace's current revision; copies nothing, so it costs the same at any model size.",
      params: IdParam,
      body: CreateVersionInput,
      output: { schema: Version, status: 201, description: "Created" },
    },
    (c, { params, body }) => createVersion({ ctx: inWorkspace(c.var.ctx, params.id), input: body }),
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/workspaces/{id}/versions",
      tags,
      operationId: "listVersions",
      params: IdParam,
      output: { schema: z.array(Version), description: "Versions, newest revision first" },
    },
    (c, { params }) => listVersions({ ctx: inWorkspace(c.var.ctx, params.id) }),
  );
  registerRoute(
    app,
    {
      method: "delete",
      path: "/api/workspaces/{id}/versions/{versionId}",
      tags,
      operationId: "deleteVersion",
      description: "Owners only. The history the version named stays.",
      params: VersionParams,
    },
    async (c, { params }) => {
      await deleteVersion({ ctx: inWorkspace(c.var.ctx, params.id), input: { versionId: params.versionId } });
    },
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/workspaces/{id}/diff",
      tags,
      operationId: "diffWorkspace",
      description:
        "What differs between two points of the workspace's history (version ids or revisions; `to` defaults to " +
        "'current'): per kind added, removed and changed (fields before and after), per view its nodes and " +
        "connections added, removed, moved or resized. Read from the change log: objects touched between the two only.",
      params: IdParam,
      query: DiffQuery,
      output: { schema: ModelDiff, description: "The differences" },
    },
    (c, { params, query }) => diffRevisions({ ctx: inWorkspace(c.var.ctx, params.id), input: query }),
  );
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/workspaces/{id}/restore",
      tags,
      operationId: "restoreVersion",
      description:
        "Makes the workspace the state of a version as one new change group (history keeps both); an automatic " +
        "version of the state before is made first, in the same transaction.",
      params: IdParam,
      body: RestoreInput,
      output: { schema: ChangeResult, description: "Restored" },
    },
    (c, { params, body }) => restoreVersion({ ctx: inWorkspace(c.var.ctx, params.id), input: body }),
  );
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/workspaces/{id}/history/{revision}/revert",
      tags,
      operationId: "revertChange",
      description:
        "Undoes one change group as a new one (an undelete brings objects back with their ids). 409 names the later " +
        "revisions and objects when a later change touched the same objects.",
      params: RevisionParams,
      output: { schema: ChangeResult, description: "Reverted" },
      problems: { 409: "A later change touched the same objects" },
    },
    (c, { params }) => revertChange({ ctx: inWorkspace(c.var.ctx, params.id), input: { revision: params.revision } }),
  );
  for (const kind of ["element", "relationship", "view"] as const) {
    registerRoute(
      app,
      {
        method: "post",
        path: `/api/${kind}s/{id}/restore`,
        tags,
        operationId: `restore${kind[0]?.toUpperCase()}${kind.slice(1)}`,
        description: `Brings the ${kind} back to its state at a revision (with its property values${
          kind === "view" ? ", nodes and connections" : ""
        }), as a new change group; it may have been deleted since.`,
        params: IdParam,
        body: ObjectRestoreInput,
        output: { schema: ChangeResult, description: "Restored" },
      },
      (c, { params, body }) =>
        restoreObject({ ctx: c.var.ctx, input: { kind, id: params.id, revision: body.revision } }),
    );
  }
}
