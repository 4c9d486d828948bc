import { AppError } from "@ams/shared";
import { createRoute } from "@hono/zod-openapi";
import type { App } from "../../http/app-env.ts";
import { jsonResponse, problemResponses } from "../../http/openapi.ts";
import { issueInvitation } from "../../invitations/issue.ts";
import { getInvitationInOrganization } from "../../invitations/manage.ts";
import { IssuedInvitation, ResendInvitationInput } from "../../invitations/schemas.ts";
import type { InvitationServices } from "../../invitations/services.ts";
import type { MemberRole } from "../../organizations/schemas.ts";
import { InvitationParams } from "./params.ts";

const route = createRoute({
  method: "post",
  path: "/api/organizations/{id}/invitations/{invitationId}/resend",
  operationId: "resendInvitation",
  tags: ["invitations"],
  request: {
    params: InvitationParams,
    body: { required: false, content: { "application/json": { schema: ResendInvitationInput } } },
  },
  responses: {
    201: jsonResponse(
      IssuedInvitation,
      "Reissued: the old invitation is revoked, a new one (new id, new link) is active",
    ),
    ...problemResponses,
    409: { description: "The invitation was accepted or revoked" },
  },
});

/** Owner reissues an active (possibly expired or unsent) invitation; optionally with another delivery mode. */
export const registerResendInvitation = (app: App, s: InvitationServices) =>
  app.openapi(route, async (c) => {
    const { invitationId } = c.req.valid("param");
    const organizationId = c.var.access.organizationId!;
    const input = c.req.header("content-type")?.includes("json") ? c.req.valid("json") : {};
    const old = await getInvitationInOrganization(s.database, organizationId, invitationId);
    if (old.acceptedAt) throw new AppError("CONFLICT", "This invitation has been accepted already");
    if (old.revokedAt) throw new AppError("CONFLICT", "This invitation was revoked or replaced; create a new one");
    const principal = c.var.access.principal!;
    const issued = await issueInvitation(s, {
      organizationId,
      email: old.email,
      role: old.role as MemberRole,
      deliveryMode: input.delivery_mode ?? (old.deliveryMode as "both" | "email" | "manual"),
      inviter: { userId: principal.userId, username: principal.username, name: principal.name },
      replaces: old.id,
    });
    return c.json(issued, 201);
  });
