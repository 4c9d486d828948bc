import { organizations } from "@ams/db";
import { AppError } from "@ams/shared";
import { createRoute } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { ControlContext } from "../../../context.ts";
import { isUuid } from "../../../gateway/resolve.ts";
import type { App } from "../../../http/app-env.ts";
import { IdParam, noContent, problemResponses } from "../../../http/openapi.ts";

const route = createRoute({
  method: "delete",
  path: "/api/platform/organizations/{id}",
  operationId: "platformDeleteOrganization",
  tags: ["platform"],
  request: { params: IdParam },
  responses: { 204: noContent, ...problemResponses },
});

/**
 * Deletes an organization. The foreign keys cascade to its workspaces (and through them every model table),
 * memberships and API tokens; selections pointing at it are cleared.
 */
export const registerPlatformDeleteOrganization = (app: App, ctx: ControlContext) =>
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const deleted = isUuid(id)
      ? await ctx.database.db.delete(organizations).where(eq(organizations.id, id)).returning({ id: organizations.id })
      : [];
    if (deleted.length === 0) throw new AppError("NOT_FOUND", "Organization not found");
    return c.body(null, 204);
  });
