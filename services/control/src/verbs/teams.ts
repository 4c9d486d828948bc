import { recordCallerEvent, userSubject } from "../audit/record.ts";
import type { Team, WorkspaceTeams } from "../teams/schemas.ts";
import * as store from "../teams/store.ts";
import type { MemberContext } from "./context.ts";

/** Teams of the caller's organization (any member reads them; owners and admins manage them). */
export function listTeams({ ctx }: { ctx: MemberContext }): Promise<Team[]> {
  return store.listTeams(ctx.database, ctx.organizationId);
}

export async function createTeam({ ctx, input }: { ctx: MemberContext; input: { name: string } }): Promise<Team> {
  const team = await store.createTeam(ctx.database, ctx.organizationId, input.name);
  await teamEvent(ctx, "team.created", team.id, { name: team.name });
  return team;
}

function teamEvent(
  ctx: MemberContext,
  kind: "team.created" | "team.renamed" | "team.deleted" | "team.member_added" | "team.member_removed",
  teamId: string,
  details: Record<string, unknown> = {},
  target: { id: string; name: string } | null = null,
): Promise<void> {
  return recordCallerEvent(ctx, {
    kind,
    organizationId: ctx.organizationId,
    target,
    details: { team_id: teamId, ...details },
  });
}

export async function renameTeam({
  ctx,
  input,
}: {
  ctx: MemberContext;
  input: { teamId: string; name: string };
}): Promise<Team> {
  const team = await store.renameTeam(ctx.database, ctx.organizationId, input.teamId, input.name);
  await teamEvent(ctx, "team.renamed", team.id, { name: team.name });
  return team;
}

export async function deleteTeam({ ctx, input }: { ctx: MemberContext; input: { teamId: string } }): Promise<void> {
  await store.deleteTeam(ctx.database, ctx.organizationId, input.teamId);
  await teamEvent(ctx, "team.deleted", input.teamId);
}

export async function addTeamMember({
  ctx,
  input,
}: {
  ctx: MemberContext;
  input: { teamId: string; userId: string };
}): Promise<void> {
  await store.addTeamMember(ctx.database, ctx.organizationId, input.teamId, input.userId);
  await teamEvent(ctx, "team.member_added", input.teamId, {}, await userSubject(ctx.database.db, input.userId));
}

export async function removeTeamMember({
  ctx,
  input,
}: {
  ctx: MemberContext;
  input: { teamId: string; userId: string };
}): Promise<void> {
  await store.removeTeamMember(ctx.database, ctx.organizationId, input.teamId, input.userId);
  await teamEvent(ctx, "team.member_removed", input.teamId, {}, await userSubject(ctx.database.db, input.userId));
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
export async function setWorkspaceTeams({
  ctx,
  input,
}: {
  ctx: MemberContext;
  input: { workspaceId: string; teamIds: string[] };
}): Promise<WorkspaceTeams> {
  const assigned = await store.setWorkspaceTeams(ctx.database, ctx.organizationId, input.workspaceId, input.teamIds);
  await recordCallerEvent(ctx, {
    kind: "workspace.teams_changed",
    organizationId: ctx.organizationId,
    details: { workspace_id: input.workspaceId, team_ids: input.teamIds },
  });
  return assigned;
}
