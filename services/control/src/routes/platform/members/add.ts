import { IdParam } from "../../../http/openapi.ts";
import { controlRoute } from "../../../http/route.ts";
import { AddMemberInput, Member } from "../../../organizations/schemas.ts";
import { addOrganizationMember } from "../../../verbs/platform.ts";

export const platformAddMemberRoute = controlRoute(
  {
    method: "post",
    path: "/api/platform/organizations/{id}/members",
    operationId: "platformAddMember",
    tags: ["platform"],
    who: "signed-in",
    params: IdParam,
    body: AddMemberInput,
    output: { schema: Member, status: 201, description: "Added" },
    problems: { 409: "Already a member" },
  },
  ({ ctx, params, body }) => addOrganizationMember({ ctx, input: { ...body, id: params.id } }),
);
