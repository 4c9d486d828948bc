import { organizations } from "@ams/db";
import { AppError } from "@ams/shared";
import { createRoute, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { ControlContext } from "../../../context.ts";
import { isUuid } from "../../../gateway/resolve.ts";
import type { App } from "../../../http/app-env.ts";
import { IdParam, jsonBody, jsonResponse, problemResponses } from "../../../http/openapi.ts";
import { Organization, toOrganization } from "../../../organizations/schemas.ts";

const SuspendInput = z.object({ enabled: z.boolean() });

const route = createRoute({
  method: "put",
  path: "/api/platform/organizations/{id}",
  operationId: "platformSetOrganizationEnabled",
  tags: ["platform"],
  request: { params: IdParam, body: jsonBody(SuspendInput) },
  responses: { 200: jsonResponse(Organization, "Updated"), ...problemResponses },
});

/** Suspends ({enabled:false}) or reactivates an organization; its data is untouched. */
export const registerPlatformUpdateOrganization = (app: App, ctx: ControlContext) =>
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const [row] = isUuid(id)
      ? await ctx.database.db
          .update(organizations)
          .set({ enabled: c.req.valid("json").enabled })
          .where(eq(organizations.id, id))
          .returning()
      : [];
    if (!row) throw new AppError("NOT_FOUND", "Organization not found");
    return c.json(toOrganization(row), 200);
  });
