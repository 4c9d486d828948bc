import { IdParam } from "../../http/openapi.ts";
import { controlRoute } from "../../http/route.ts";
import { AddMemberInput, Member } from "../../organizations/schemas.ts";
import { addMember } from "../../verbs/members.ts";

export const addMemberRoute = controlRoute(
  {
    method: "post",
    path: "/api/organizations/{id}/members",
    operationId: "addMember",
    tags: ["members"],
    who: "member",
    params: IdParam,
    body: AddMemberInput,
    output: { schema: Member, status: 201, description: "Added" },
    problems: { 409: "Already a member" },
  },
  ({ ctx, body }) => addMember({ ctx, input: body }),
);
