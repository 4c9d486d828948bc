import type { Database } from "@ams/db";
import type { OrgRole } from "@ams/shared";
import { sql } from "drizzle-orm";
import { asOrgRole } from "../auth/api-token-lookup.ts";
import { teamIdsOf, workspaceVisible } from "./visibility.ts";

/**
 * A caller's standing in one organization; role is null when they are no member. teamIds: their teams there.
 * visible: false for a workspace assigned to teams the caller is not in (and they are no owner/admin).
 * twoFactorOk: false when the organization requires two-factor and the caller has not turned it on.
 */
export type Standing = {
  organizationId: string;
  enabled: boolean;
  role: OrgRole | null;
  teamIds: string[];
  visible: boolean;
  twoFactorOk: boolean;
  /** For a workspace that is a draft: the workspace it was forked from (null once that was deleted). */
  baseWorkspaceId?: string | null;
};
export type ActiveStanding = Standing & { workspaceId: string | null };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string | null | undefined): value is string => !!value && UUID.test(value);

type StandingRow = {
  organization_id: string;
  enabled: boolean;
  role: string | null;
  team_ids: string[] | null;
  visible?: boolean;
  workspace_id?: string | null;
  two_factor_ok: boolean;
  base_workspace_id?: string | null;
};

/** Whether the caller meets the organization's two-factor rule (the user row is read only when there is one). */
const twoFactorOk = (userId: string, org: string) =>
  sql`case when ${sql.raw(org)}.require_two_factor
    then coalesce((select u.two_factor_enabled from users u where u.id = ${userId}), false) else true end`;

/**
 * The interactive choice: the session's active organization (session profile) while the user is a member of it,
 * else the selected organization while the user is still a member of it (with the selected workspace if it belongs
 * there), else the first membership (enabled organizations first) with its first workspace that is not a draft (a
 * draft is opened on purpose, never chosen for someone; its base may have been deleted and the draft closed). Null when the user has
 * no membership at all.
 *
 * It runs on every gateway request, so it is two statements of which the common case sends one. The first chooses
 * without any team table and says whether the chosen organization has teams at all; without teams nobody is in one
 * and every workspace is visible (a workspace is only ever assigned to teams of its own organization), so its answer
 * stands. With teams, the whole choice is made again by one statement with the team ids and visibility checks, so
 * no answer mixes two snapshots. The team-free statement is what PostgreSQL plans per request (PGlite always plans
 * anew; postgres.js's named statement may keep a custom plan), and the team subqueries quadrupled that planning.
 */
export async function resolveActive(
  database: Database,
  userId: string,
  sessionOrganizationId: string | null = null,
): Promise<ActiveStanding | null> {
  const preferred = isUuid(sessionOrganizationId) ? sessionOrganizationId : null;
  const [row] = await database.rows<StandingRow & { has_teams: boolean }>(
    sql`
    select m.organization_id, o.enabled, m.role, ${twoFactorOk(userId, "o")} as two_factor_ok,
      exists (select 1 from teams t where t.organization_id = m.organization_id) as has_teams,
      case when s.organization_id = m.organization_id
        then (select w.id from workspaces w where w.id = s.workspace_id and w.organization_id = m.organization_id)
        else (select w.id from workspaces w where w.organization_id = m.organization_id
          and not exists (select 1 from drafts d where d.workspace_id = w.id)
          order by w.created_at, w.id limit 1)
      end as workspace_id
    ${activeChoice(userId, preferred)}`,
  );
  if (!row) return null;
  if (!row.has_teams) return { ...toStanding(row), workspaceId: row.workspace_id ?? null };
  return resolveActiveWithTeams(database, userId, preferred);
}

/** FROM to LIMIT of both statements of resolveActive: the user's memberships, the preferred one first. */
const activeChoice = (userId: string, preferred: string | null) => sql`
    from memberships m
    join organizations o on o.id = m.organization_id
    left join user_selections s on s.user_id = m.user_id
    where m.user_id = ${userId}
    order by (m.organization_id = ${preferred}::uuid) desc nulls last,
      (s.organization_id = m.organization_id) desc nulls last, o.enabled desc, m.created_at, m.organization_id
    limit 1`;

/** resolveActive where the organization has teams: the caller's team ids, and only workspaces they may see. */
async function resolveActiveWithTeams(
  database: Database,
  userId: string,
  preferred: string | null,
): Promise<ActiveStanding | null> {
  const seen = workspaceVisible("w", userId, sql`m.role`);
  const [row] = await database.rows<StandingRow>(
    sql`
    select m.organization_id, o.enabled, m.role, ${teamIdsOf(userId, "m.organization_id")} as team_ids,
      ${twoFactorOk(userId, "o")} as two_factor_ok,
      case when s.organization_id = m.organization_id
        then (select w.id from workspaces w where w.id = s.workspace_id and w.organization_id = m.organization_id
          and ${seen})
        else (select w.id from workspaces w where w.organization_id = m.organization_id and ${seen}
          and not exists (select 1 from drafts d where d.workspace_id = w.id)
          order by w.created_at, w.id limit 1)
      end as workspace_id
    ${activeChoice(userId, preferred)}`,
  );
  return row ? { ...toStanding(row), workspaceId: row.workspace_id ?? null } : null;
}

/** The caller's role in organization `organizationId`; null when the organization does not exist. */
export async function resolveOrganization(
  database: Database,
  userId: string,
  organizationId: string,
): Promise<Standing | null> {
  if (!isUuid(organizationId)) return null;
  const [row] = await database.rows<StandingRow>(
    sql`
    select o.id as organization_id, o.enabled, m.role, ${teamIdsOf(userId, "o.id")} as team_ids,
      ${twoFactorOk(userId, "o")} as two_factor_ok
    from organizations o
    left join memberships m on m.organization_id = o.id and m.user_id = ${userId}
    where o.id = ${organizationId}`,
  );
  return row ? toStanding(row) : null;
}

/**
 * The organization of workspace `workspaceId` and the caller's role there (and, for a draft, its base: a token pinned
 * to the base reaches its drafts); null when the workspace does not exist.
 */
export async function resolveWorkspace(
  database: Database,
  userId: string,
  workspaceId: string,
): Promise<Standing | null> {
  if (!isUuid(workspaceId)) return null;
  const [row] = await database.rows<StandingRow>(
    sql`
    select w.organization_id, o.enabled, m.role, ${teamIdsOf(userId, "w.organization_id")} as team_ids,
      ${twoFactorOk(userId, "o")} as two_factor_ok,
      ${workspaceVisible("w", userId, sql`m.role`)} as visible,
      (select d.base_workspace_id from drafts d where d.workspace_id = w.id) as base_workspace_id
    from workspaces w
    join organizations o on o.id = w.organization_id
    left join memberships m on m.organization_id = w.organization_id and m.user_id = ${userId}
    where w.id = ${workspaceId}`,
  );
  return row ? { ...toStanding(row), baseWorkspaceId: row.base_workspace_id ?? null } : null;
}

function toStanding(row: StandingRow): Standing {
  return {
    organizationId: row.organization_id,
    enabled: row.enabled,
    role: asOrgRole(row.role),
    teamIds: row.team_ids ?? [],
    visible: row.visible ?? true,
    twoFactorOk: row.two_factor_ok,
  };
}
