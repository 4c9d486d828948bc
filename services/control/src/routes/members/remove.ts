import { MemberParams } from "../../http/openapi.ts";
import { controlRoute } from "../../http/route.ts";
import { removeMember } from "../../verbs/members.ts";

export const removeMemberRoute = controlRoute(
  {
    method: "delete",
    path: "/api/organizations/{id}/members/{userId}",
    operationId: "removeMember",
    tags: ["members"],
    who: "member",
    params: MemberParams,
    problems: { 409: "The last owner cannot be removed" },
  },
  ({ ctx, params }) => removeMember({ ctx, input: { userId: params.userId } }),
);
