import { createRoute } from "@hono/zod-openapi";
import type { ControlContext } from "../../../context.ts";
import type { App } from "../../../http/app-env.ts";
import { MemberParams, noContent, problemResponses } from "../../../http/openapi.ts";
import { removeMember } from "../../../organizations/members.ts";
import { requireOrganization } from "./existing-organization.ts";

const route = createRoute({
  method: "delete",
  path: "/api/platform/organizations/{id}/members/{userId}",
  operationId: "platformRemoveMember",
  tags: ["platform"],
  request: { params: MemberParams },
  responses: { 204: noContent, ...problemResponses, 409: { description: "Last owner" } },
});

export const registerPlatformRemoveMember = (app: App, ctx: ControlContext) =>
  app.openapi(route, async (c) => {
    const { id, userId } = c.req.valid("param");
    await removeMember(ctx.database, await requireOrganization(ctx.database, id), userId, ctx.clock());
    return c.body(null, 204);
  });
