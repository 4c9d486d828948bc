import { controlRoute } from "../../http/route.ts";
import { IssuedInvitation, ResendInvitationInput } from "../../invitations/schemas.ts";
import { resendInvitation } from "../../verbs/invitations.ts";
import { InvitationParams } from "./params.ts";

export const resendInvitationRoute = controlRoute(
  {
    method: "post",
    path: "/api/organizations/{id}/invitations/{invitationId}/resend",
    operationId: "resendInvitation",
    tags: ["invitations"],
    who: "member",
    params: InvitationParams,
    body: ResendInvitationInput,
    bodyOptional: true,
    output: {
      schema: IssuedInvitation,
      status: 201,
      description: "Reissued: the old invitation is revoked, a new one (new id, new link) is active",
    },
    problems: { 409: "The invitation was accepted or revoked" },
  },
  ({ ctx, params, body }) => resendInvitation({ ctx, input: { ...body, invitationId: params.invitationId } }),
);
