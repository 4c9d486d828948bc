import { createRoute } from "@hono/zod-openapi";
import type { App } from "../../http/app-env.ts";
import { noContent, problemResponses } from "../../http/openapi.ts";
import { revokeInvitation } from "../../invitations/manage.ts";
import type { InvitationServices } from "../../invitations/services.ts";
import { InvitationParams } from "./params.ts";

const route = createRoute({
  method: "delete",
  path: "/api/organizations/{id}/invitations/{invitationId}",
  operationId: "revokeInvitation",
  tags: ["invitations"],
  request: { params: InvitationParams },
  responses: { 204: noContent, ...problemResponses, 409: { description: "Already accepted" } },
});

export const registerRevokeInvitation = (app: App, s: InvitationServices) =>
  app.openapi(route, async (c) => {
    const { invitationId } = c.req.valid("param");
    await revokeInvitation(s.database, c.var.access.organizationId!, invitationId, s.clock());
    return c.body(null, 204);
  });
