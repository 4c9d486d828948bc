import { createRoute } from "@hono/zod-openapi";
import type { App } from "../../http/app-env.ts";
import { jsonResponse, problemResponses } from "../../http/openapi.ts";
import { acceptInvitation } from "../../invitations/redeem.ts";
import { AcceptedInvitation } from "../../invitations/schemas.ts";
import type { InvitationServices } from "../../invitations/services.ts";
import { TokenParam } from "./params.ts";

const route = createRoute({
  method: "post",
  path: "/api/invitations/{token}/accept",
  operationId: "acceptInvitation",
  tags: ["invitations"],
  request: { params: TokenParam },
  responses: {
    200: jsonResponse(AcceptedInvitation, "Accepted: the caller is a member"),
    ...problemResponses,
    410: { description: "Accepted (possibly by a concurrent request), revoked or expired" },
  },
});

export const registerAcceptInvitation = (app: App, s: InvitationServices) =>
  app.openapi(route, async (c) =>
    c.json(await acceptInvitation(s.database, c.req.valid("param").token, c.var.access.principal!, s.clock()), 200),
  );
