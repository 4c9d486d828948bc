import type { Team, WorkspaceTeams } from "../teams/schemas.ts";
import * as store from "../teams/store.ts";
import type { MemberContext } from "./context.ts";

/** Teams of the caller's organization (any member reads them; owners and admins manage them). */
export function listTeams({ ctx }: { ctx: MemberContext }): Promise<Team[]> {
  return store.listTeams(ctx.database, ctx.organizationId);
}

export function createTeam({ ctx, input }: { ctx: MemberContext; input: { name: string } }): Promise<Team> {
  return store.createTeam(ctx.database, ctx.organizationId, input.name);
}

export function renameTeam({
  ctx,
  input,
}: {
  ctx: MemberContext;
  input: { teamId: string; name: string };
}): Promise<Team> {
  return store.renameTeam(ctx.database, ctx.organizationId, input.teamId, input.name);
}

export function deleteTeam({ ctx, input }: { ctx: MemberContext; input: { teamId: string } }): Promise<void> {
  return store.deleteTeam(ctx.database, ctx.organizationId, input.teamId);
}

export function addTeamMember({
  ctx,
  input,
}: {
  ctx: MemberContext;
  input: { teamId: string; userId: string };
}): Promise<void> {
  return store.addTeamMember(ctx.database, ctx.organizationId, input.teamId, input.userId);
}

export function removeTeamMember({
  ctx,
  input,
}: {
  ctx: MemberContext;
  input: { teamId: string; userId: string };
}): Promise<void> {
  return store.removeTeamMember(ctx.database, ctx.organizationId, input.teamId, input.userId);
}

/** The teams the workspace the gateway resolved is assigned to. */
export function getWorkspaceTeams({
  ctx,
  input,
}: {
  ctx: MemberContext;
  input: { workspaceId: string };
}): Promise<WorkspaceTeams> {
  return store.getWorkspaceTeams(ctx.database, input.workspaceId);
}

/** Assigns the workspace to these teams (empty: the whole organization sees it again). */
export function setWorkspaceTeams({
  ctx,
  input,
}: {
  ctx: MemberContext;
  input: { workspaceId: string; teamIds: string[] };
}): Promise<WorkspaceTeams> {
  return store.setWorkspaceTeams(ctx.database, ctx.organizationId, input.workspaceId, input.teamIds);
}
