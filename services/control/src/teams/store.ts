import { type Database, memberships, teamMembers, teams, workspaces, workspaceTeams } from "@ams/db";
import { AppError, notFound } from "@ams/shared";
import { and, asc, eq, inArray } from "drizzle-orm";
import { isUuid } from "../gateway/resolve.ts";
import type { Team, WorkspaceTeams } from "./schemas.ts";

type TeamRow = typeof teams.$inferSelect;

/** The organization's teams by name, each with its members and assigned workspaces. */
export async function listTeams(database: Database, organizationId: string): Promise<Team[]> {
  const rows = await database.db
    .select()
    .from(teams)
    .where(eq(teams.organizationId, organizationId))
    .orderBy(asc(teams.name), asc(teams.id));
  if (rows.length === 0) return [];
  const ids = rows.map((t) => t.id);
  const members = await database.db.select().from(teamMembers).where(inArray(teamMembers.teamId, ids));
  const assigned = await database.db.select().from(workspaceTeams).where(inArray(workspaceTeams.teamId, ids));
  return rows.map((t) =>
    toTeam(
      t,
      members.filter((m) => m.teamId === t.id).map((m) => m.userId),
      assigned.filter((a) => a.teamId === t.id).map((a) => a.workspaceId),
    ),
  );
}

export async function createTeam(database: Database, organizationId: string, name: string): Promise<Team> {
  const [row] = await database.db.insert(teams).values({ organizationId, name }).onConflictDoNothing().returning();
  if (!row) throw new AppError("CONFLICT", `A team named '${name}' already exists`);
  return toTeam(row, [], []);
}

export async function renameTeam(database: Database, organizationId: string, teamId: string, name: string) {
  await findTeam(database, organizationId, teamId);
  const taken = await database.db
    .select({ id: teams.id })
    .from(teams)
    .where(and(eq(teams.organizationId, organizationId), eq(teams.name, name)));
  if (taken.some((t) => t.id !== teamId)) throw new AppError("CONFLICT", `A team named '${name}' already exists`);
  await database.db.update(teams).set({ name }).where(eq(teams.id, teamId));
  return (await listTeams(database, organizationId)).find((t) => t.id === teamId) as Team;
}

/** Deletes the team; workspaces assigned only to it become the whole organization's again. */
export async function deleteTeam(database: Database, organizationId: string, teamId: string): Promise<void> {
  await findTeam(database, organizationId, teamId);
  await database.db.delete(teams).where(eq(teams.id, teamId));
}

/** Adds a member of the organization to the team (idempotent); 422 for someone who is no member. */
export async function addTeamMember(database: Database, organizationId: string, teamId: string, userId: string) {
  await findTeam(database, organizationId, teamId);
  const [member] = await database.db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
  if (!member) {
    throw new AppError("VALIDATION", "userId: not a member of this organization", {
      errors: [{ path: "userId", message: "not a member of this organization" }],
    });
  }
  await database.db.insert(teamMembers).values({ teamId, userId }).onConflictDoNothing();
}

export async function removeTeamMember(database: Database, organizationId: string, teamId: string, userId: string) {
  await findTeam(database, organizationId, teamId);
  const removed = await database.db
    .delete(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
    .returning();
  if (removed.length === 0) throw notFound("Team member", userId);
}

/** Replaces the teams a workspace is assigned to; every team must be of the workspace's organization. */
export async function setWorkspaceTeams(
  database: Database,
  organizationId: string,
  workspaceId: string,
  teamIds: string[],
): Promise<WorkspaceTeams> {
  const unique = [...new Set(teamIds)];
  const bad = unique.filter((id) => !isUuid(id));
  const known =
    bad.length || unique.length === 0
      ? []
      : await database.db
          .select({ id: teams.id })
          .from(teams)
          .where(and(eq(teams.organizationId, organizationId), inArray(teams.id, unique)));
  const missing = unique.filter((id) => !known.some((k) => k.id === id));
  if (missing.length) {
    throw new AppError("VALIDATION", `team_ids: no such team in this organization: ${missing.join(", ")}`, {
      errors: missing.map((id) => ({ path: "team_ids", message: `no such team: ${id}` })),
    });
  }
  await database.db.transaction(async (tx) => {
    const [ws] = await tx
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(and(eq(workspaces.id, workspaceId), eq(workspaces.organizationId, organizationId)));
    if (!ws) throw notFound("Workspace", workspaceId);
    await tx.delete(workspaceTeams).where(eq(workspaceTeams.workspaceId, workspaceId));
    if (unique.length) await tx.insert(workspaceTeams).values(unique.map((teamId) => ({ workspaceId, teamId })));
  });
  return { workspace_id: workspaceId, team_ids: unique.sort() };
}

export async function getWorkspaceTeams(database: Database, workspaceId: string): Promise<WorkspaceTeams> {
  const rows = await database.db
    .select({ teamId: workspaceTeams.teamId })
    .from(workspaceTeams)
    .where(eq(workspaceTeams.workspaceId, workspaceId));
  return { workspace_id: workspaceId, team_ids: rows.map((r) => r.teamId).sort() };
}

async function findTeam(database: Database, organizationId: string, teamId: string): Promise<TeamRow> {
  const [row] = isUuid(teamId)
    ? await database.db
        .select()
        .from(teams)
        .where(and(eq(teams.id, teamId), eq(teams.organizationId, organizationId)))
    : [];
  if (!row) throw notFound("Team", teamId);
  return row;
}

function toTeam(row: TeamRow, memberIds: string[], workspaceIds: string[]): Team {
  return {
    id: row.id,
    organization_id: row.organizationId,
    name: row.name,
    member_ids: memberIds.sort(),
    workspace_ids: workspaceIds.sort(),
    created_at: row.createdAt.toISOString(),
  };
}
