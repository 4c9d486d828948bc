import { createHash, randomBytes } from "node:crypto";
import { AppError } from "@ams/shared";
import { sql } from "drizzle-orm";
import { type RequestContext, requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { getViewRow } from "../views/internal.ts";
import type { CreatedShareLink, CreateShareLinkInput, ShareLink } from "./schemas.ts";

type Row = {
  id: string;
  scope: "view" | "report";
  view_id: string | null;
  view_name: string | null;
  expires_at: string | Date | null;
  frame_ancestors: string | null;
  created_by: string | null;
  created_by_name: string | null;
  created_at: string | Date;
};

const iso = (d: string | Date | null) => (d === null ? null : new Date(d).toISOString());

const toLink = (r: Row): ShareLink => ({
  id: r.id,
  scope: r.scope,
  view_id: r.view_id,
  view_name: r.view_name,
  expires_at: iso(r.expires_at),
  frame_ancestors: r.frame_ancestors ?? "'none'",
  created_by: { id: r.created_by, name: r.created_by_name },
  created_at: new Date(r.created_at).toISOString(),
});

/** The stored form of a link's token: its SHA-256 (256 random bits need no slow hash). */
export const shareTokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

const COLUMNS = sql`l.id, l.scope, l.view_id, v.name as view_name, l.expires_at, l.frame_ancestors, l.created_by,
  l.created_by_name, l.created_at`;

/** A read-only link to a view or the whole report (owners and editors); the token is in the URL answered once. */
export async function createShareLink({
  ctx,
  input,
}: Verb<CreateShareLinkInput & { base_url: string }>): Promise<CreatedShareLink> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  if (input.scope === "view") await getViewRow(ctx.database, ws, input.view_id ?? "");
  const token = randomBytes(32).toString("base64url");
  const frame = input.frame_ancestors && input.frame_ancestors !== "'none'" ? input.frame_ancestors : null;
  const [row] = await ctx.database.rows<Row>(
    sql`with l as (
          insert into share_links (workspace_id, scope, view_id, token_hash, frame_ancestors, expires_at, created_by, created_by_name)
          values (${ws}, ${input.scope}, ${input.scope === "view" ? (input.view_id ?? null) : null}, ${shareTokenHash(token)},
            ${frame}, ${input.expires_at ?? null}, ${ctx.userId || null}, ${ctx.actorName ?? (ctx.username || null)})
          returning *)
        select ${COLUMNS} from l left join views v on v.workspace_id = l.workspace_id and v.id = l.view_id`,
  );
  if (!row) throw new AppError("NOT_FOUND", `Workspace '${ws}' not found`);
  return { ...toLink(row), url: `${input.base_url.replace(/\/+$/, "")}/s/${token}` };
}

/** The workspace's links that still work (no tokens: those are not stored), newest first. */
export async function listShareLinks({ ctx }: Verb): Promise<ShareLink[]> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const rows = await ctx.database.rows<Row>(
    sql`select ${COLUMNS} from share_links l
        left join views v on v.workspace_id = l.workspace_id and v.id = l.view_id
        where l.workspace_id = ${ws} and (l.expires_at is null or l.expires_at > now())
        order by l.created_at desc, l.id`,
  );
  return rows.map(toLink);
}

/** Revokes a link: the row goes, the link answers 404 from then on. */
export async function deleteShareLink({ ctx, input }: Verb<{ linkId: string }>): Promise<void> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(input.linkId);
  const rows = uuid
    ? await ctx.database.rows<{ id: string }>(
        sql`delete from share_links where workspace_id = ${ws} and id = ${input.linkId} returning id`,
      )
    : [];
  if (rows.length === 0) throw new AppError("NOT_FOUND", `Share link '${input.linkId}' not found`);
}

export type ResolvedShareLink = {
  scope: "view" | "report";
  viewId: string | null;
  frameAncestors: string;
  /** A read-only context on the link's workspace: what the public pages read the model with. */
  ctx: RequestContext;
};

/**
 * The link a token stands for, or null (unknown, revoked, expired, malformed, its organization suspended): looked up by the token's hash, an
 * indexed equality, so the time taken says nothing about how close a guess was.
 */
export async function resolveShareLink(
  database: RequestContext["database"],
  token: string,
  resolveIcon?: RequestContext["resolveIcon"],
): Promise<ResolvedShareLink | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const [row] = await database.rows<{
    id: string;
    workspace_id: string;
    organization_id: string;
    scope: "view" | "report";
    view_id: string | null;
    frame_ancestors: string | null;
  }>(
    sql`select l.id, l.workspace_id, w.organization_id, l.scope, l.view_id, l.frame_ancestors
        from share_links l join workspaces w on w.id = l.workspace_id
          join organizations o on o.id = w.organization_id and o.enabled
        where l.token_hash = ${shareTokenHash(token)} and (l.expires_at is null or l.expires_at > now())`,
  );
  if (!row) return null;
  return {
    scope: row.scope,
    viewId: row.view_id,
    frameAncestors: row.frame_ancestors ?? "'none'",
    ctx: {
      database,
      userId: `share-link:${row.id}`,
      username: "share link",
      organizationId: row.organization_id,
      workspaceId: row.workspace_id,
      role: "viewer",
      platformAdmin: false,
      pinnedWorkspaceId: row.workspace_id,
      resolveIcon,
    },
  };
}
