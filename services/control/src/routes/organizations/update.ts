import { organizations } from "@ams/db";
import { createRoute, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import { IdParam, jsonBody, jsonResponse, problemResponses } from "../../http/openapi.ts";
import { Organization, toOrganization } from "../../organizations/schemas.ts";

const RenameInput = z.object({ name: z.string().trim().min(1).max(200) });

const route = createRoute({
  method: "put",
  path: "/api/organizations/{id}",
  operationId: "renameOrganization",
  tags: ["organizations"],
  request: { params: IdParam, body: jsonBody(RenameInput) },
  responses: { 200: jsonResponse(Organization, "Renamed"), ...problemResponses },
});

/** Owner only (the gateway checked org:rename on :id). */
export const registerRenameOrganization = (app: App, ctx: ControlContext) =>
  app.openapi(route, async (c) => {
    const [row] = await ctx.database.db
      .update(organizations)
      .set({ name: c.req.valid("json").name })
      .where(eq(organizations.id, c.var.access.organizationId!))
      .returning();
    return c.json(toOrganization(row), 200);
  });
