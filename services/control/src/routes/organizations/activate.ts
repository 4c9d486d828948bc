import { createRoute, z } from "@hono/zod-openapi";
import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import { IdParam, jsonResponse, problemResponses } from "../../http/openapi.ts";
import { activateOrganization } from "../../organizations/selection.ts";

const Selection = z
  .object({ organization_id: z.string(), workspace_id: z.string().nullable() })
  .openapi("ActiveSelection");

const route = createRoute({
  method: "post",
  path: "/api/organizations/{id}/activate",
  operationId: "activateOrganization",
  tags: ["organizations"],
  request: { params: IdParam },
  responses: { 200: jsonResponse(Selection, "Now active"), ...problemResponses },
});

/** Switches the active organization (and to its first workspace, or none). */
export const registerActivateOrganization = (app: App, ctx: ControlContext) =>
  app.openapi(route, async (c) => {
    const { principal, organizationId } = c.var.access;
    return c.json(await activateOrganization(ctx.database.db, principal!.userId, organizationId!, ctx.clock()), 200);
  });
