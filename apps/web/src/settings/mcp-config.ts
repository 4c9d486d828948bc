/**
 * Ready-to-paste MCP client configurations for a new token: the server's MCP endpoint (Streamable HTTP at /mcp)
 * with the token in the Authorization header. The URL is the address this page was loaded from, which is the
 * service's public address as the user reaches it.
 */
export type McpClientKind = "mcpServers" | "vscode" | "mcp-remote";

type McpClient = { kind: McpClientKind; label: string; where: string };

/** Never empty: the first is the default choice. */
export const MCP_CLIENTS: [McpClient, ...McpClient[]] = [
  {
    kind: "mcpServers",
    label: "Claude Code, Cursor, Windsurf and other mcpServers clients",
    where: "Add this entry to the client's mcpServers configuration (for example .mcp.json or ~/.cursor/mcp.json).",
  },
  { kind: "vscode", label: "Visual Studio Code", where: "Put this in .vscode/mcp.json (or the user settings' mcp)." },
  {
    kind: "mcp-remote",
    label: "Claude Desktop (through mcp-remote)",
    where:
      "Claude Desktop starts local servers only; mcp-remote bridges to this HTTP endpoint. Put this in claude_desktop_config.json.",
  },
];

export const SERVER_NAME = "archimate";

export function mcpUrl(origin = window.location.origin): string {
  return `${origin.replace(/\/+$/, "")}/mcp`;
}

export function mcpConfig(kind: McpClientKind, token: string, origin?: string): string {
  const url = mcpUrl(origin);
  const authorization = `Bearer ${token}`;
  switch (kind) {
    case "mcpServers":
      return JSON.stringify(
        { mcpServers: { [SERVER_NAME]: { type: "http", url, headers: { Authorization: authorization } } } },
        null,
        2,
      );
    case "vscode":
      return JSON.stringify(
        { servers: { [SERVER_NAME]: { type: "http", url, headers: { Authorization: authorization } } } },
        null,
        2,
      );
    case "mcp-remote":
      return JSON.stringify(
        {
          mcpServers: {
            [SERVER_NAME]: {
              command: "npx",
              // mcp-remote expands ${AUTH_HEADER} itself (keeps the space in the header value out of the args).
              // biome-ignore lint/suspicious/noTemplateCurlyInString: a placeholder for mcp-remote, not for JavaScript
              args: ["-y", "mcp-remote", url, "--header", "Authorization:${AUTH_HEADER}"],
              env: { AUTH_HEADER: authorization },
            },
          },
        },
        null,
        2,
      );
  }
}
