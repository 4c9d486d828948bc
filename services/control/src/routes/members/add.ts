import { createRoute } from "@hono/zod-openapi";
import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import { IdParam, jsonBody, jsonResponse, problemResponses } from "../../http/openapi.ts";
import { addMember } from "../../organizations/members.ts";
import { AddMemberInput, Member } from "../../organizations/schemas.ts";

const route = createRoute({
  method: "post",
  path: "/api/organizations/{id}/members",
  operationId: "addMember",
  tags: ["members"],
  request: { params: IdParam, body: jsonBody(AddMemberInput) },
  responses: {
    201: jsonResponse(Member, "Added"),
    ...problemResponses,
    409: { description: "Already a member" },
  },
});

/** Owner adds an existing account by username. */
export const registerAddMember = (app: App, ctx: ControlContext) =>
  app.openapi(route, async (c) => {
    const member = await addMember(
      ctx.database,
      ctx.directory,
      c.var.access.organizationId!,
      c.req.valid("json"),
      ctx.clock(),
    );
    return c.json(member, 201);
  });
