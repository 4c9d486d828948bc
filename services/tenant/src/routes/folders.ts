import { FolderItem, listFolders } from "@ams/model";
import { registerRoute } from "@ams/shared/http";
import { z } from "@hono/zod-openapi";
import type { TenantApp } from "./openapi.ts";

export function registerFolderRoutes(app: TenantApp) {
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/folders",
      tags: ["Workspaces and model"],
      operationId: "listFolders",
      output: {
        schema: z.array(FolderItem),
        description: "The imported organization tree: folders and the concepts filed in them, in file order",
      },
    },
    (c) => listFolders({ ctx: c.var.ctx }),
  );
}
