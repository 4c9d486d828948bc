import { controlRoute } from "../../http/route.ts";
import { AcceptedInvitation } from "../../invitations/schemas.ts";
import { acceptInvitation } from "../../verbs/invitations.ts";
import { TokenParam } from "./params.ts";

export const acceptInvitationRoute = controlRoute(
  {
    method: "post",
    path: "/api/invitations/{token}/accept",
    operationId: "acceptInvitation",
    tags: ["invitations"],
    who: "signed-in",
    params: TokenParam,
    output: { schema: AcceptedInvitation, description: "Accepted: the caller is a member" },
    problems: { 410: "Accepted (possibly by a concurrent request), revoked or expired" },
  },
  ({ ctx, params }) => acceptInvitation({ ctx, input: params }),
);
