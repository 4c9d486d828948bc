import { z } from "@hono/zod-openapi";
import { IdParam } from "../../http/openapi.ts";
import { controlRoute } from "../../http/route.ts";
import { Invitation, ListInvitationsQuery } from "../../invitations/schemas.ts";
import { listInvitations } from "../../verbs/invitations.ts";

export const listInvitationsRoute = controlRoute(
  {
    method: "get",
    path: "/api/organizations/{id}/invitations",
    operationId: "listInvitations",
    tags: ["invitations"],
    who: "member",
    params: IdParam,
    query: ListInvitationsQuery,
    output: { schema: z.array(Invitation), description: "Invitations, without their links" },
  },
  ({ ctx, query }) => listInvitations({ ctx, input: query }),
);
