import { createRoute } from "@hono/zod-openapi";
import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import { MemberParams, noContent, problemResponses } from "../../http/openapi.ts";
import { removeMember } from "../../organizations/members.ts";

const route = createRoute({
  method: "delete",
  path: "/api/organizations/{id}/members/{userId}",
  operationId: "removeMember",
  tags: ["members"],
  request: { params: MemberParams },
  responses: { 204: noContent, ...problemResponses, 409: { description: "The last owner cannot be removed" } },
});

export const registerRemoveMember = (app: App, ctx: ControlContext) =>
  app.openapi(route, async (c) => {
    await removeMember(ctx.database, c.var.access.organizationId!, c.req.valid("param").userId, ctx.clock());
    return c.body(null, 204);
  });
