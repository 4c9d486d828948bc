import { createRoute } from "@hono/zod-openapi";
import type { ControlContext } from "../../../context.ts";
import type { App } from "../../../http/app-env.ts";
import { IdParam, jsonBody, jsonResponse, problemResponses } from "../../../http/openapi.ts";
import { addMember } from "../../../organizations/members.ts";
import { AddMemberInput, Member } from "../../../organizations/schemas.ts";
import { requireOrganization } from "./existing-organization.ts";

const route = createRoute({
  method: "post",
  path: "/api/platform/organizations/{id}/members",
  operationId: "platformAddMember",
  tags: ["platform"],
  request: { params: IdParam, body: jsonBody(AddMemberInput) },
  responses: { 201: jsonResponse(Member, "Added"), ...problemResponses, 409: { description: "Already a member" } },
});

/** Admin adds any existing account, itself included (that is how Admin gets content access). */
export const registerPlatformAddMember = (app: App, ctx: ControlContext) =>
  app.openapi(route, async (c) => {
    const id = await requireOrganization(ctx.database, c.req.valid("param").id);
    return c.json(await addMember(ctx.database, ctx.directory, id, c.req.valid("json"), ctx.clock()), 201);
  });
