import { sql } from "@ams/db";
import { notFound } from "@ams/shared";
import type { ToolCall } from "./define.ts";

/**
 * A token pinned to one workspace reaches only that one. Over REST the gateway enforces this from the path
 * (/api/workspaces/:id/activate); over MCP the workspace id sits inside the JSON-RPC body, so activate_workspace
 * asks the token row itself. The answer is the gateway's: the workspace is "not found".
 */
export async function assertTokenReaches({ ctx, claims }: ToolCall, workspaceId: string): Promise<void> {
  if (!claims.apiTokenId) return;
  const [token] = await ctx.database.rows<{ workspace_id: string | null }>(
    sql`select workspace_id from api_tokens where id = ${claims.apiTokenId}`,
  );
  if (token?.workspace_id && token.workspace_id !== workspaceId) throw notFound("Workspace", workspaceId);
}
