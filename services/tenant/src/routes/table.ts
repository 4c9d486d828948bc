import {
  BulkEditInput,
  BulkEditResult,
  bulkEdit,
  type RequestContext,
  readTable,
  TableData,
  TableQuery,
} from "@ams/model";
import { AppError } from "@ams/shared";
import { registerRoute } from "@ams/shared/http";
import { IdParam, type TenantApp } from "./openapi.ts";

const tags = ["Table view"];

/** The workspace the gateway authorized (path :id); the context names it, anything else is not this workspace. */
function inWorkspace(ctx: RequestContext, id: string): RequestContext {
  if (ctx.workspaceId !== id) throw new AppError("NOT_FOUND", `Workspace '${id}' not found`);
  return ctx;
}

export function registerTableRoutes(app: TenantApp) {
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/workspaces/{id}/table",
      tags,
      operationId: "getTable",
      description:
        "Every element (or relationship) of the workspace with its property values, column by column: what the " +
        "table view loads once and then filters, sorts and scrolls in the browser.",
      params: IdParam,
      query: TableQuery,
      output: { schema: TableData, description: "The table's columns" },
    },
    (c, { params, query }) => readTable({ ctx: inWorkspace(c.var.ctx, params.id), input: query }),
  );
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/workspaces/{id}/bulk",
      tags,
      operationId: "bulkEdit",
      description:
        "One change group over many elements or relationships: set a type, documentation or property values on " +
        "`ids`, delete `ids`, or write a value per row (`rows`, a pasted block). All or nothing; a type that would " +
        "make a relationship invalid under ArchiMate 3.1 is refused naming it; `expected_revisions` makes it " +
        "conditional (412 with the first row that changed meanwhile).",
      params: IdParam,
      body: BulkEditInput,
      output: { schema: BulkEditResult, description: "The change group the edit made" },
      problems: { 412: "A row of expected_revisions was changed by someone else; the body is that row as it is now" },
    },
    (c, { params, body }) => bulkEdit({ ctx: inWorkspace(c.var.ctx, params.id), input: body }),
  );
}
