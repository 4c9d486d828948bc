import type { Database } from "@ams/db";
import { type OrgRole, OrgRoles } from "@ams/shared";
import { sql } from "drizzle-orm";
import { teamIdsOf, workspaceVisible } from "../gateway/visibility.ts";
import { looksLikeApiToken } from "./api-token-format.ts";
import type { Principal } from "./principal.ts";
import { sha256Hex } from "./secrets.ts";

type Row = {
  token_id: string;
  token_name: string;
  oauth_client_name: string | null;
  organization_id: string;
  pinned_workspace_id: string | null;
  workspace_id: string | null;
  org_enabled: boolean;
  role: string | null;
  team_ids: string[] | null;
  workspace_visible: boolean;
  user_id: string;
  username: string;
  name: string;
  email: string;
  email_verified: boolean;
  must_change_password: boolean;
  mcp_only: boolean;
};

/**
 * Resolves a personal API token in one indexed query (by SHA-256, never a slow hash): the owner, the live
 * membership role in the token's organization, whether that organization is enabled, and the workspace to act on
 * (pinned, else the owner's selection inside the organization, else its first workspace).
 * Revoked or expired tokens, and tokens of a disabled owner, resolve to null.
 */
export async function lookupApiToken(database: Database, token: string, now: Date): Promise<Principal | null> {
  if (!looksLikeApiToken(token)) return null;
  const seen = workspaceVisible("w", sql`t.user_id`, sql`m.role`);
  const [row] = await database.rows<Row>(
    sql`
    select t.id as token_id, t.name as token_name, t.organization_id, t.mcp_only, t.workspace_id as pinned_workspace_id,
      (select c.client_name from oauth_refresh_tokens r join oauth_clients c on c.client_id = r.client_id
        where r.api_token_id = t.id limit 1) as oauth_client_name,
      coalesce(
        t.workspace_id,
        (select w.id from workspaces w where w.id = s.workspace_id and w.organization_id = t.organization_id
          and ${seen}),
        case when s.organization_id is distinct from t.organization_id then
          (select w.id from workspaces w where w.organization_id = t.organization_id and ${seen}
            order by w.created_at, w.id limit 1)
        end
      ) as workspace_id,
      ${teamIdsOf(sql`t.user_id`, "t.organization_id")} as team_ids,
      (t.workspace_id is null or exists (select 1 from workspaces w where w.id = t.workspace_id and ${seen}))
        as workspace_visible,
      o.enabled as org_enabled, m.role,
      u.id as user_id, u.username, u.name, u.email, u.email_verified, u.must_change_password
    from api_tokens t
    join users u on u.id = t.user_id
    join organizations o on o.id = t.organization_id
    left join memberships m on m.organization_id = t.organization_id and m.user_id = t.user_id
    left join user_selections s on s.user_id = t.user_id
    where t.token_hash = ${sha256Hex(token)}
      and t.revoked_at is null
      and not u.banned
      and (t.expires_at is null or t.expires_at > ${now.toISOString()}::timestamptz)`,
  );
  if (!row) return null;
  return {
    userId: row.user_id,
    username: row.username,
    name: row.name,
    email: row.email,
    emailVerified: row.email_verified,
    // A token never carries Admin powers: Admin cannot create one, and platform routes need a signed-in session.
    platformAdmin: false,
    mustChangePassword: row.must_change_password,
    provider: "api-token",
    apiToken: {
      tokenId: row.token_id,
      name: row.token_name,
      oauthClientName: row.oauth_client_name,
      organizationId: row.organization_id,
      organizationEnabled: row.org_enabled,
      pinnedWorkspaceId: row.pinned_workspace_id,
      workspaceId: row.workspace_id,
      role: asOrgRole(row.role),
      teamIds: row.team_ids ?? [],
      workspaceVisible: row.workspace_visible,
      mcpOnly: row.mcp_only,
    },
  };
}

export function asOrgRole(value: string | null | undefined): OrgRole | null {
  return value && (OrgRoles as readonly string[]).includes(value) ? (value as OrgRole) : null;
}
