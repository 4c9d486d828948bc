import { MemberParams } from "../../../http/openapi.ts";
import { controlRoute } from "../../../http/route.ts";
import { Member, UpdateMemberInput } from "../../../organizations/schemas.ts";
import { updateOrganizationMember } from "../../../verbs/platform.ts";

export const platformUpdateMemberRoute = controlRoute(
  {
    method: "put",
    path: "/api/platform/organizations/{id}/members/{userId}",
    operationId: "platformUpdateMemberRole",
    tags: ["platform"],
    who: "signed-in",
    params: MemberParams,
    body: UpdateMemberInput,
    output: { schema: Member, description: "Role changed" },
    problems: { 409: "Last owner" },
  },
  ({ ctx, params, body }) => updateOrganizationMember({ ctx, input: { ...params, role: body.role } }),
);
