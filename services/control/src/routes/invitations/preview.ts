import { createRoute } from "@hono/zod-openapi";
import type { App } from "../../http/app-env.ts";
import { jsonResponse, problemResponses } from "../../http/openapi.ts";
import { previewInvitation } from "../../invitations/redeem.ts";
import { InvitationPreview } from "../../invitations/schemas.ts";
import type { InvitationServices } from "../../invitations/services.ts";
import { TokenParam } from "./params.ts";

const route = createRoute({
  method: "get",
  path: "/api/invitations/{token}",
  operationId: "previewInvitation",
  tags: ["invitations"],
  request: { params: TokenParam },
  responses: {
    200: jsonResponse(InvitationPreview, "The invitation, for the invited and verified address"),
    ...problemResponses,
    410: { description: "Accepted, revoked or expired" },
  },
});

export const registerPreviewInvitation = (app: App, s: InvitationServices) =>
  app.openapi(route, async (c) =>
    c.json(await previewInvitation(s.database, c.req.valid("param").token, c.var.access.principal!, s.clock()), 200),
  );
