import { type SQL, sql } from "drizzle-orm";

/**
 * "User `userId` with role `role` sees workspace `<alias>`", as SQL over a workspaces alias: a workspace without
 * teams is the whole organization's; one assigned to teams is visible to those teams' members and to owners and
 * admins (inner aliases are vis_*, so they never shadow the caller's). (A platform admin's bypass in the session profile is the authorization function's, not this query's.)
 */
export function workspaceVisible(alias: string, userId: SQL | string, role: SQL): SQL {
  const w = sql.raw(alias);
  const user = typeof userId === "string" ? sql`${userId}` : userId;
  return sql`(${role} in ('owner', 'admin')
    or not exists (select 1 from workspace_teams vis_wt where vis_wt.workspace_id = ${w}.id)
    or exists (select 1 from workspace_teams vis_wt join team_members vis_tm on vis_tm.team_id = vis_wt.team_id
      where vis_wt.workspace_id = ${w}.id and vis_tm.user_id = ${user}))`;
}

/** The ids of user `userId`'s teams in organization `<orgColumn>`, as a text[] column. */
export function teamIdsOf(userId: SQL | string, orgColumn: string): SQL {
  const user = typeof userId === "string" ? sql`${userId}` : userId;
  return sql`array(select vis_tm.team_id::text from team_members vis_tm join teams vis_t on vis_t.id = vis_tm.team_id
    where vis_tm.user_id = ${user} and vis_t.organization_id = ${sql.raw(orgColumn)} order by 1)`;
}
