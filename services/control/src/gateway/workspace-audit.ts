import { sql } from "drizzle-orm";
import type { Context } from "hono";
import { recordAuditEvent, subjectOf } from "../audit/record.ts";
import { clientIp } from "../auth/client-ip.ts";
import type { Access } from "../auth/principal.ts";
import type { ControlContext } from "../context.ts";
import type { RouteRule } from "./routes.ts";

const WATCHED = new Set(["POST /api/workspaces", "PUT /api/workspaces/:id", "DELETE /api/workspaces/:id"]);

/**
 * Workspaces are created, renamed and deleted by the tenant service; the organization's audit learns of it here, at
 * the gateway, which knows the caller, their address and the organization the request was authorized against.
 * Recorded once the tenant answered success (a refused or failed request records nothing). Other routes pass
 * straight through.
 */
export async function forwardWithWorkspaceAudit(
  ctx: ControlContext,
  c: Context,
  rule: RouteRule,
  params: Record<string, string>,
  access: Access,
  forward: () => Promise<Response>,
): Promise<Response> {
  const principal = access.principal;
  if (!principal || !access.organizationId || !WATCHED.has(`${rule.method} ${rule.path}`)) return forward();
  const id = params.id;
  const before = id ? await workspaceName(ctx, id) : null;
  const response = await forward();
  if (!response.ok) return response;
  const base = {
    actor: subjectOf(principal),
    organizationId: access.organizationId,
    address: clientIp(c, ctx.env.TRUST_PROXY_HOPS),
  };
  if (rule.method === "POST") {
    const body = (await response
      .clone()
      .json()
      .catch(() => null)) as { id?: unknown; name?: unknown } | null;
    await recordAuditEvent(ctx.database.db, {
      ...base,
      kind: "workspace.created",
      details: { workspace_id: body?.id ?? null, name: body?.name ?? null },
    });
  } else if (rule.method === "PUT" && id) {
    const after = await workspaceName(ctx, id);
    if (after !== before) {
      await recordAuditEvent(ctx.database.db, {
        ...base,
        kind: "workspace.renamed",
        details: { workspace_id: id, from: before, to: after },
      });
    }
  } else if (id) {
    await recordAuditEvent(ctx.database.db, {
      ...base,
      kind: "workspace.deleted",
      details: { workspace_id: id, name: before },
    });
  }
  return response;
}

async function workspaceName(ctx: ControlContext, id: string): Promise<string | null> {
  const [row] = await ctx.database.rows<{ name: string }>(sql`select name from workspaces where id = ${id}`);
  return row?.name ?? null;
}
