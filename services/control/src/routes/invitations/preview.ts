import { controlRoute } from "../../http/route.ts";
import { InvitationPreview } from "../../invitations/schemas.ts";
import { previewInvitation } from "../../verbs/invitations.ts";
import { TokenParam } from "./params.ts";

export const previewInvitationRoute = controlRoute(
  {
    method: "get",
    path: "/api/invitations/{token}",
    operationId: "previewInvitation",
    tags: ["invitations"],
    who: "signed-in",
    params: TokenParam,
    output: { schema: InvitationPreview, description: "The invitation, for the invited and verified address" },
    problems: { 410: "Accepted, revoked or expired" },
  },
  ({ ctx, params }) => previewInvitation({ ctx, input: params }),
);
