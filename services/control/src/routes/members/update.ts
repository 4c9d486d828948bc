import { MemberParams } from "../../http/openapi.ts";
import { controlRoute } from "../../http/route.ts";
import { Member, UpdateMemberInput } from "../../organizations/schemas.ts";
import { updateMemberRole } from "../../verbs/members.ts";

export const updateMemberRoute = controlRoute(
  {
    method: "put",
    path: "/api/organizations/{id}/members/{userId}",
    operationId: "updateMemberRole",
    tags: ["members"],
    who: "member",
    params: MemberParams,
    body: UpdateMemberInput,
    output: { schema: Member, description: "Role changed" },
    problems: { 409: "The last owner cannot be demoted" },
  },
  ({ ctx, params, body }) => updateMemberRole({ ctx, input: { userId: params.userId, role: body.role } }),
);
