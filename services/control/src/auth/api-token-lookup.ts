import type { Database } from "@ams/db";
import { type OrgRole, OrgRoles } from "@ams/shared";
import { sql } from "drizzle-orm";
import { teamIdsOf, workspaceVisible } from "../gateway/visibility.ts";
import { accessVersionsOf } from "./access-versions.ts";
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
  expires_ms: number | null;
  access_version: number | string | null;
};

export type ApiTokenLookup = (token: string, now: Date) => Promise<Principal | null>;

type Kept = { userId: string; version: number; expiresMs: number | null; principal: Principal };
/** Tokens one replica remembers; all forgotten when full. */
const KEPT_TOKENS = 50_000;

/**
 * lookupApiToken with a per-replica memory: a token's answer is believed while its owner's access counter
 * (access_versions, raised by the triggers of migration 0022 in the transaction that revokes or changes the token,
 * the owner's account, membership, role, teams, selection or the organization's workspaces and rules) is the one
 * read with it, and until it expires. Every request reads the counter (one primary-key lookup), so a revoked token
 * or a demoted owner is refused by every replica from the commit on (on the embedded database the counter is this
 * process's memory of it, forgotten at the commit that raises it: access-versions.ts).
 */
export function cachedApiTokenLookup(database: Database): ApiTokenLookup {
  const kept = new Map<string, Kept>();
  const versions = accessVersionsOf(database);
  return async (token, now) => {
    if (!looksLikeApiToken(token)) return null;
    const hash = sha256Hex(token);
    const known = kept.get(hash);
    if (known && (known.expiresMs === null || known.expiresMs > now.getTime())) {
      if ((await versions.of(known.userId)) === known.version) return known.principal;
    }
    kept.delete(hash);
    const found = await readApiToken(database, hash, now);
    if (!found) return null;
    if (kept.size >= KEPT_TOKENS) kept.clear();
    kept.set(hash, found);
    return found.principal;
  };
}

/**
 * Resolves a personal API token in one indexed query (by SHA-256, never a slow hash): the owner, the live
 * membership role in the token's organization, whether that organization is enabled, and the workspace to act on
 * (pinned: the draft of it the token activated, else the pinned workspace; else the owner's selection inside the
 * organization, else its first workspace).
 * Revoked or expired tokens, and tokens of a disabled owner, resolve to null.
 */
export async function lookupApiToken(database: Database, token: string, now: Date): Promise<Principal | null> {
  if (!looksLikeApiToken(token)) return null;
  return (await readApiToken(database, sha256Hex(token), now))?.principal ?? null;
}

/** lookupApiToken's statement, with the owner's access counter read in the same snapshot. */
async function readApiToken(database: Database, hash: string, now: Date): Promise<Kept | null> {
  const seen = workspaceVisible("w", sql`t.user_id`, sql`m.role`);
  const [row] = await database.rows<Row>(
    sql`
    select t.id as token_id, t.name as token_name, t.organization_id, t.mcp_only, t.workspace_id as pinned_workspace_id,
      (select c.client_name from oauth_refresh_tokens r join oauth_clients c on c.client_id = r.client_id
        where r.api_token_id = t.id limit 1) as oauth_client_name,
      coalesce(
        (select d.workspace_id from drafts d where d.workspace_id = t.active_draft_id
          and d.base_workspace_id = t.workspace_id),
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
      (extract(epoch from t.expires_at) * 1000)::float8 as expires_ms,
      coalesce((select a.version from access_versions a where a.user_id = t.user_id), 0) as access_version,
      u.id as user_id, u.username, u.name, u.email, u.email_verified, u.must_change_password
    from api_tokens t
    join users u on u.id = t.user_id
    join organizations o on o.id = t.organization_id
    left join memberships m on m.organization_id = t.organization_id and m.user_id = t.user_id
    left join user_selections s on s.user_id = t.user_id
    where t.token_hash = ${hash}
      and t.revoked_at is null
      and not u.banned
      and (t.expires_at is null or t.expires_at > ${now.toISOString()}::timestamptz)`,
  );
  if (!row) return null;
  const principal: Principal = {
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
  return { userId: row.user_id, version: Number(row.access_version), expiresMs: row.expires_ms, principal };
}

export function asOrgRole(value: string | null | undefined): OrgRole | null {
  return value && (OrgRoles as readonly string[]).includes(value) ? (value as OrgRole) : null;
}
