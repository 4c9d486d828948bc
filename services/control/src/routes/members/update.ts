import { createRoute } from "@hono/zod-openapi";
import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import { jsonBody, jsonResponse, MemberParams, problemResponses } from "../../http/openapi.ts";
import { updateMemberRole } from "../../organizations/members.ts";
import { Member, UpdateMemberInput } from "../../organizations/schemas.ts";

const route = createRoute({
  method: "put",
  path: "/api/organizations/{id}/members/{userId}",
  operationId: "updateMemberRole",
  tags: ["members"],
  request: { params: MemberParams, body: jsonBody(UpdateMemberInput) },
  responses: {
    200: jsonResponse(Member, "Role changed"),
    ...problemResponses,
    409: { description: "The last owner cannot be demoted" },
  },
});

export const registerUpdateMember = (app: App, ctx: ControlContext) =>
  app.openapi(route, async (c) => {
    const { userId } = c.req.valid("param");
    const { role } = c.req.valid("json");
    return c.json(await updateMemberRole(ctx.database, c.var.access.organizationId!, userId, role), 200);
  });
