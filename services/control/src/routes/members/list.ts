import { createRoute, z } from "@hono/zod-openapi";
import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import { IdParam, jsonResponse, problemResponses } from "../../http/openapi.ts";
import { listMembers } from "../../organizations/members.ts";
import { Member } from "../../organizations/schemas.ts";

const route = createRoute({
  method: "get",
  path: "/api/organizations/{id}/members",
  operationId: "listMembers",
  tags: ["members"],
  request: { params: IdParam },
  responses: { 200: jsonResponse(z.array(Member), "Members with role and username"), ...problemResponses },
});

export const registerListMembers = (app: App, ctx: ControlContext) =>
  app.openapi(route, async (c) => c.json(await listMembers(ctx.database, c.var.access.organizationId!), 200));
