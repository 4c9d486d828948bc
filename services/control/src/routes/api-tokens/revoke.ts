import { apiTokens } from "@ams/db";
import { AppError } from "@ams/shared";
import { createRoute } from "@hono/zod-openapi";
import { and, eq, isNull } from "drizzle-orm";
import type { ControlContext } from "../../context.ts";
import { isUuid } from "../../gateway/resolve.ts";
import type { App } from "../../http/app-env.ts";
import { IdParam, noContent, problemResponses } from "../../http/openapi.ts";

const route = createRoute({
  method: "delete",
  path: "/api/settings/api-tokens/{id}",
  operationId: "revokeApiToken",
  tags: ["api-tokens"],
  request: { params: IdParam },
  responses: { 204: noContent, ...problemResponses },
});

/** Revokes one of the caller's own tokens; it stops working on the next request. */
export const registerRevokeApiToken = (app: App, ctx: ControlContext) =>
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const revoked = isUuid(id)
      ? await ctx.database.db
          .update(apiTokens)
          .set({ revokedAt: ctx.clock() })
          .where(
            and(
              eq(apiTokens.id, id),
              eq(apiTokens.userId, c.var.access.principal!.userId),
              isNull(apiTokens.revokedAt),
            ),
          )
          .returning({ id: apiTokens.id })
      : [];
    if (revoked.length === 0) throw new AppError("NOT_FOUND", "API token not found");
    return c.body(null, 204);
  });
