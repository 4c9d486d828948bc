import { createRoute } from "@hono/zod-openapi";
import type { App } from "../../http/app-env.ts";
import { IdParam, jsonBody, jsonResponse, problemResponses } from "../../http/openapi.ts";
import { issueInvitation } from "../../invitations/issue.ts";
import { CreateInvitationInput, IssuedInvitation } from "../../invitations/schemas.ts";
import type { InvitationServices } from "../../invitations/services.ts";

const route = createRoute({
  method: "post",
  path: "/api/organizations/{id}/invitations",
  operationId: "createInvitation",
  tags: ["invitations"],
  request: { params: IdParam, body: jsonBody(CreateInvitationInput) },
  responses: {
    201: jsonResponse(
      IssuedInvitation,
      "Issued (an earlier active invitation of the address is revoked). sent_at is null when the e-mail did not go " +
        "out; accept_url is present for delivery_mode both and manual, and only in this response.",
    ),
    ...problemResponses,
  },
});

/** Owner invites an e-mail address with a role. */
export const registerCreateInvitation = (app: App, s: InvitationServices) =>
  app.openapi(route, async (c) => {
    const input = c.req.valid("json");
    const principal = c.var.access.principal!;
    const issued = await issueInvitation(s, {
      organizationId: c.var.access.organizationId!,
      email: input.email,
      role: input.role,
      deliveryMode: input.delivery_mode,
      inviter: { userId: principal.userId, username: principal.username, name: principal.name },
    });
    return c.json(issued, 201);
  });
