import { createRoute, z } from "@hono/zod-openapi";
import type { App } from "../../http/app-env.ts";
import { IdParam, jsonResponse, problemResponses } from "../../http/openapi.ts";
import { listInvitations } from "../../invitations/manage.ts";
import { Invitation, ListInvitationsQuery } from "../../invitations/schemas.ts";
import type { InvitationServices } from "../../invitations/services.ts";

const route = createRoute({
  method: "get",
  path: "/api/organizations/{id}/invitations",
  operationId: "listInvitations",
  tags: ["invitations"],
  request: { params: IdParam, query: ListInvitationsQuery },
  responses: { 200: jsonResponse(z.array(Invitation), "Invitations, without their links"), ...problemResponses },
});

export const registerListInvitations = (app: App, s: InvitationServices) =>
  app.openapi(route, async (c) => {
    const { status } = c.req.valid("query");
    return c.json(await listInvitations(s.database, c.var.access.organizationId!, status, s.clock()), 200);
  });
