import { controlRoute } from "../../http/route.ts";
import { revokeInvitation } from "../../verbs/invitations.ts";
import { InvitationParams } from "./params.ts";

export const revokeInvitationRoute = controlRoute(
  {
    method: "delete",
    path: "/api/organizations/{id}/invitations/{invitationId}",
    operationId: "revokeInvitation",
    tags: ["invitations"],
    who: "member",
    params: InvitationParams,
    problems: { 409: "Already accepted" },
  },
  ({ ctx, params }) => revokeInvitation({ ctx, input: params }),
);
