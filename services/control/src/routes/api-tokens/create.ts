import { apiTokens, workspaces } from "@ams/db";
import { invalid } from "@ams/shared";
import { createRoute } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { generateApiToken } from "../../auth/api-token-format.ts";
import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import { jsonBody, jsonResponse, problemResponses } from "../../http/openapi.ts";
import { CreateApiTokenInput, CreatedApiToken, toApiToken } from "./schemas.ts";

const route = createRoute({
  method: "post",
  path: "/api/settings/api-tokens",
  operationId: "createApiToken",
  tags: ["api-tokens"],
  request: { body: jsonBody(CreateApiTokenInput) },
  responses: { 201: jsonResponse(CreatedApiToken, "Created; the token is shown this once"), ...problemResponses },
});

/**
 * The gateway has checked a membership in organization_id (404 otherwise), that it is not suspended, and that
 * the caller is no Admin. The token stores no role: it is re-resolved on every request.
 */
export const registerCreateApiToken = (app: App, ctx: ControlContext) =>
  app.openapi(route, async (c) => {
    const input = c.req.valid("json");
    const now = ctx.clock();
    if (input.workspace_id) {
      const [ws] = await ctx.database.db
        .select({ id: workspaces.id })
        .from(workspaces)
        .where(and(eq(workspaces.id, input.workspace_id), eq(workspaces.organizationId, input.organization_id)));
      if (!ws) throw invalid("workspace_id", "is not a workspace of the organization");
    }
    const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
    if (expiresAt && expiresAt.getTime() <= now.getTime()) throw invalid("expires_at", "must be in the future");
    const secret = generateApiToken();
    const [row] = await ctx.database.db
      .insert(apiTokens)
      .values({
        userId: c.var.access.principal!.userId,
        organizationId: input.organization_id,
        workspaceId: input.workspace_id ?? null,
        name: input.name,
        prefix: secret.prefix,
        tokenHash: secret.tokenHash,
        expiresAt,
        createdAt: now,
      })
      .returning();
    return c.json({ ...toApiToken(row, now), token: secret.token }, 201);
  });
