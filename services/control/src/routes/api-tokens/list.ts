import { apiTokens } from "@ams/db";
import { createRoute, z } from "@hono/zod-openapi";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import { jsonResponse, problemResponses } from "../../http/openapi.ts";
import { ApiToken, toApiToken } from "./schemas.ts";

const route = createRoute({
  method: "get",
  path: "/api/settings/api-tokens",
  operationId: "listApiTokens",
  tags: ["api-tokens"],
  responses: { 200: jsonResponse(z.array(ApiToken), "The caller's tokens (never the secret)"), ...problemResponses },
});

export const registerListApiTokens = (app: App, ctx: ControlContext) =>
  app.openapi(route, async (c) => {
    const rows = await ctx.database.db
      .select()
      .from(apiTokens)
      .where(and(eq(apiTokens.userId, c.var.access.principal!.userId), isNull(apiTokens.revokedAt)))
      .orderBy(desc(apiTokens.createdAt));
    const now = ctx.clock();
    return c.json(
      rows.map((r) => toApiToken(r, now)),
      200,
    );
  });
