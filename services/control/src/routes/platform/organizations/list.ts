import { organizations } from "@ams/db";
import { createRoute, z } from "@hono/zod-openapi";
import { asc } from "drizzle-orm";
import type { ControlContext } from "../../../context.ts";
import type { App } from "../../../http/app-env.ts";
import { jsonResponse, problemResponses } from "../../../http/openapi.ts";
import { Organization, toOrganization } from "../../../organizations/schemas.ts";

const route = createRoute({
  method: "get",
  path: "/api/platform/organizations",
  operationId: "platformListOrganizations",
  tags: ["platform"],
  responses: { 200: jsonResponse(z.array(Organization), "Every organization (metadata only)"), ...problemResponses },
});

export const registerPlatformListOrganizations = (app: App, ctx: ControlContext) =>
  app.openapi(route, async (c) => {
    const rows = await ctx.database.db
      .select()
      .from(organizations)
      .orderBy(asc(organizations.createdAt), asc(organizations.id));
    return c.json(rows.map(toOrganization), 200);
  });
