import { z } from "@hono/zod-openapi";
import { IdParam } from "../../http/openapi.ts";
import { controlRoute } from "../../http/route.ts";
import { Team, TeamInput, TeamParams } from "../../teams/schemas.ts";
import { createTeam, deleteTeam, listTeams, renameTeam } from "../../verbs/teams.ts";

export const listTeamsRoute = controlRoute(
  {
    method: "get",
    path: "/api/organizations/{id}/teams",
    operationId: "listTeams",
    tags: ["teams"],
    who: "member",
    params: IdParam,
    output: { schema: z.array(Team), description: "The organization's teams with members and workspaces" },
  },
  ({ ctx }) => listTeams({ ctx }),
);

export const createTeamRoute = controlRoute(
  {
    method: "post",
    path: "/api/organizations/{id}/teams",
    operationId: "createTeam",
    tags: ["teams"],
    who: "member",
    params: IdParam,
    body: TeamInput,
    output: { schema: Team, status: 201, description: "Created" },
    problems: { 409: "A team of that name exists" },
  },
  ({ ctx, body }) => createTeam({ ctx, input: body }),
);

export const renameTeamRoute = controlRoute(
  {
    method: "put",
    path: "/api/organizations/{id}/teams/{teamId}",
    operationId: "renameTeam",
    tags: ["teams"],
    who: "member",
    params: TeamParams,
    body: TeamInput,
    output: { schema: Team, description: "Renamed" },
    problems: { 409: "A team of that name exists" },
  },
  ({ ctx, params, body }) => renameTeam({ ctx, input: { teamId: params.teamId, name: body.name } }),
);

export const deleteTeamRoute = controlRoute(
  {
    method: "delete",
    path: "/api/organizations/{id}/teams/{teamId}",
    operationId: "deleteTeam",
    tags: ["teams"],
    who: "member",
    params: TeamParams,
  },
  ({ ctx, params }) => deleteTeam({ ctx, input: { teamId: params.teamId } }),
);
