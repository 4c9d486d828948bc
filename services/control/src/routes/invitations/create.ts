import { IdParam } from "../../http/openapi.ts";
import { controlRoute } from "../../http/route.ts";
import { CreateInvitationInput, IssuedInvitation } from "../../invitations/schemas.ts";
import { createInvitation } from "../../verbs/invitations.ts";

export const createInvitationRoute = controlRoute(
  {
    method: "post",
    path: "/api/organizations/{id}/invitations",
    operationId: "createInvitation",
    tags: ["invitations"],
    who: "member",
    params: IdParam,
    body: CreateInvitationInput,
    output: {
      schema: IssuedInvitation,
      status: 201,
      description:
        "Issued (an earlier active invitation of the address is revoked). sent_at is null when the e-mail did not " +
        "go out; accept_url is present for delivery_mode both and manual, and only in this response.",
    },
  },
  ({ ctx, body }) => createInvitation({ ctx, input: body }),
);
