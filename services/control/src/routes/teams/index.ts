import { addTeamMemberRoute, removeTeamMemberRoute } from "./members.ts";
import { createTeamRoute, deleteTeamRoute, listTeamsRoute, renameTeamRoute } from "./teams.ts";
import { getWorkspaceTeamsRoute, setWorkspaceTeamsRoute } from "./workspace.ts";

export const teamRoutes = [
  listTeamsRoute,
  createTeamRoute,
  renameTeamRoute,
  deleteTeamRoute,
  addTeamMemberRoute,
  removeTeamMemberRoute,
  getWorkspaceTeamsRoute,
  setWorkspaceTeamsRoute,
];
