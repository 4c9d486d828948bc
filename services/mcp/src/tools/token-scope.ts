import { notFound } from "@ams/shared";
import type { ToolCall } from "./define.ts";

/**
 * A token pinned to one workspace reaches only that one. Over REST the gateway enforces this from the path
 * (/api/workspaces/:id/activate); over MCP the workspace id sits inside the JSON-RPC body, so activate_workspace
 * checks the pin the gateway signed into the claims. The answer is the gateway's: the workspace is "not found".
 */
export function assertTokenReaches({ claims }: ToolCall, workspaceId: string): void {
  if (claims.pinnedWorkspaceId && claims.pinnedWorkspaceId !== workspaceId) throw notFound("Workspace", workspaceId);
}
