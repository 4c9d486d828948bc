import { controlRoute } from "../../http/route.ts";
import { TeamMemberParams } from "../../teams/schemas.ts";
import { addTeamMember, removeTeamMember } from "../../verbs/teams.ts";

export const addTeamMemberRoute = controlRoute(
  {
    method: "put",
    path: "/api/organizations/{id}/teams/{teamId}/members/{userId}",
    operationId: "addTeamMember",
    tags: ["teams"],
    who: "member",
    params: TeamMemberParams,
  },
  ({ ctx, params }) => addTeamMember({ ctx, input: { teamId: params.teamId, userId: params.userId } }),
);

export const removeTeamMemberRoute = controlRoute(
  {
    method: "delete",
    path: "/api/organizations/{id}/teams/{teamId}/members/{userId}",
    operationId: "removeTeamMember",
    tags: ["teams"],
    who: "member",
    params: TeamMemberParams,
  },
  ({ ctx, params }) => removeTeamMember({ ctx, input: { teamId: params.teamId, userId: params.userId } }),
);
