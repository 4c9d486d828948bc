import { MemberParams } from "../../../http/openapi.ts";
import { controlRoute } from "../../../http/route.ts";
import { removeOrganizationMember } from "../../../verbs/platform.ts";

export const platformRemoveMemberRoute = controlRoute(
  {
    method: "delete",
    path: "/api/platform/organizations/{id}/members/{userId}",
    operationId: "platformRemoveMember",
    tags: ["platform"],
    who: "signed-in",
    params: MemberParams,
    problems: { 409: "Last owner" },
  },
  ({ ctx, params }) => removeOrganizationMember({ ctx, input: params }),
);
