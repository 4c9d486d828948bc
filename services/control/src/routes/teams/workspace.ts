import { IdParam } from "../../http/openapi.ts";
import { controlRoute } from "../../http/route.ts";
import { WorkspaceTeams, WorkspaceTeamsInput } from "../../teams/schemas.ts";
import { getWorkspaceTeams, setWorkspaceTeams } from "../../verbs/teams.ts";

export const getWorkspaceTeamsRoute = controlRoute(
  {
    method: "get",
    path: "/api/workspaces/{id}/teams",
    operationId: "getWorkspaceTeams",
    tags: ["teams"],
    who: "member",
    params: IdParam,
    output: { schema: WorkspaceTeams, description: "The teams that see the workspace (empty: everyone)" },
  },
  ({ ctx, params }) => getWorkspaceTeams({ ctx, input: { workspaceId: params.id } }),
);

export const setWorkspaceTeamsRoute = controlRoute(
  {
    method: "put",
    path: "/api/workspaces/{id}/teams",
    operationId: "setWorkspaceTeams",
    tags: ["teams"],
    who: "member",
    params: IdParam,
    body: WorkspaceTeamsInput,
    output: { schema: WorkspaceTeams, description: "Assigned" },
  },
  ({ ctx, params, body }) => setWorkspaceTeams({ ctx, input: { workspaceId: params.id, teamIds: body.team_ids } }),
);
