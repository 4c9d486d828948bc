import { createRoute, z } from "@hono/zod-openapi";
import type { ControlContext } from "../../../context.ts";
import type { App } from "../../../http/app-env.ts";
import { IdParam, jsonResponse, problemResponses } from "../../../http/openapi.ts";
import { listMembers } from "../../../organizations/members.ts";
import { Member } from "../../../organizations/schemas.ts";
import { requireOrganization } from "./existing-organization.ts";

const route = createRoute({
  method: "get",
  path: "/api/platform/organizations/{id}/members",
  operationId: "platformListMembers",
  tags: ["platform"],
  request: { params: IdParam },
  responses: { 200: jsonResponse(z.array(Member), "Members"), ...problemResponses },
});

export const registerPlatformListMembers = (app: App, ctx: ControlContext) =>
  app.openapi(route, async (c) => {
    const id = await requireOrganization(ctx.database, c.req.valid("param").id);
    return c.json(await listMembers(ctx.database, id), 200);
  });
