import { createRoute } from "@hono/zod-openapi";
import type { ControlContext } from "../../../context.ts";
import type { App } from "../../../http/app-env.ts";
import { jsonBody, jsonResponse, MemberParams, problemResponses } from "../../../http/openapi.ts";
import { updateMemberRole } from "../../../organizations/members.ts";
import { Member, UpdateMemberInput } from "../../../organizations/schemas.ts";
import { requireOrganization } from "./existing-organization.ts";

const route = createRoute({
  method: "put",
  path: "/api/platform/organizations/{id}/members/{userId}",
  operationId: "platformUpdateMemberRole",
  tags: ["platform"],
  request: { params: MemberParams, body: jsonBody(UpdateMemberInput) },
  responses: { 200: jsonResponse(Member, "Role changed"), ...problemResponses, 409: { description: "Last owner" } },
});

export const registerPlatformUpdateMember = (app: App, ctx: ControlContext) =>
  app.openapi(route, async (c) => {
    const { id, userId } = c.req.valid("param");
    const orgId = await requireOrganization(ctx.database, id);
    return c.json(await updateMemberRole(ctx.database, orgId, userId, c.req.valid("json").role), 200);
  });
