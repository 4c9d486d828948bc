import {
  getElementHistory,
  getRelationshipHistory,
  getViewHistory,
  getWorkspaceHistory,
  HistoryQuery,
  ObjectHistoryPage,
  WorkspaceHistoryPage,
  WorkspaceHistoryQuery,
} from "@ams/model";
import { registerRoute } from "@ams/shared/http";
import { IdParam, type TenantApp } from "./openapi.ts";

const tags = ["History"];

/** The change log's read side: a workspace's changes, and one element's, relationship's or view's. */
export function registerChangeLogRoutes(app: TenantApp) {
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/workspaces/{id}/history",
      tags,
      operationId: "getWorkspaceHistory",
      description:
        "The workspace's changes, newest first: revision, time, actor, the way it came (browser, API token, MCP " +
        "client, import, system), a one-line summary and the objects touched. Page with `before` = `next_before`.",
      params: IdParam,
      query: WorkspaceHistoryQuery,
      output: { schema: WorkspaceHistoryPage, description: "One page of changes" },
    },
    (c, { params, query }) => getWorkspaceHistory({ ctx: c.var.ctx, input: { ...query, ...params } }),
  );
  const objects = [
    ["elements", "getElementHistory", getElementHistory, "element (its property values included)"],
    ["relationships", "getRelationshipHistory", getRelationshipHistory, "relationship (its property values included)"],
    ["views", "getViewHistory", getViewHistory, "view, with its nodes and connections added, removed, moved, resized"],
  ] as const;
  for (const [path, operationId, verb, what] of objects) {
    registerRoute(
      app,
      {
        method: "get",
        path: `/api/${path}/{id}/history`,
        tags,
        operationId,
        description: `The changes of one ${what}, newest first, field by field (before and after). A deleted object keeps its history.`,
        params: IdParam,
        query: HistoryQuery,
        output: { schema: ObjectHistoryPage, description: "One page of changes" },
      },
      (c, { params, query }) => verb({ ctx: c.var.ctx, input: { ...query, ...params } }),
    );
  }
}
