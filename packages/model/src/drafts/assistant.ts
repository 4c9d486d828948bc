import { sql } from "drizzle-orm";
import type { RequestContext } from "../context.ts";
import { forkDraft } from "./fork.ts";
import { getDraftOf } from "./internal.ts";
import type { Draft } from "./schemas.ts";

/**
 * "Assistants write to drafts": where the organization has it on and the caller's token is an assistant's (an
 * OAuth-connected MCP client's, or an API token marked as an assistant's), the draft its call runs in instead of
 * the workspace it names: the workspace itself when that is already a draft, else the open draft of that base this
 * conversation opened, else (for a write) a new one. A conversation is the token: one OAuth grant (a client and a
 * user) or one assistant's API token. Null: the call runs as it is (the setting is off, the caller is no
 * assistant, or a read before the conversation's first write).
 */
export async function assistantDraft(ctx: RequestContext, apiTokenId: string, write: boolean): Promise<Draft | null> {
  const ws = ctx.workspaceId;
  if (!ws || !ctx.organizationId) return null;
  const [row] = await ctx.database.rows<{ assistant: boolean; on: boolean; is_draft: boolean }>(
    sql`select (t.mcp_only or t.assistant) as assistant, o.assistants_write_to_drafts as on,
          exists (select 1 from drafts d where d.workspace_id = ${ws}) as is_draft
        from api_tokens t join organizations o on o.id = t.organization_id
        where t.id = ${apiTokenId} and o.id = ${ctx.organizationId}`,
  );
  if (!row?.assistant || !row.on) return null;
  if (row.is_draft) return getDraftOf(ctx, ws);
  const conversation = `token:${apiTokenId}`;
  const [open] = await ctx.database.rows<{ id: string }>(
    sql`select workspace_id as id from drafts where organization_id = ${ctx.organizationId}
          and conversation = ${conversation} and base_workspace_id = ${ws} and state in ('open', 'submitted')
        order by created_at desc limit 1`,
  );
  if (open) return getDraftOf(ctx, open.id);
  if (!write) return null;
  return forkDraft({ ctx, input: { name: `Proposal by ${ctx.via?.name ?? "an assistant"}`, conversation } });
}
