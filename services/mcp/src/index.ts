export { createMcpApp, MCP_PATHS, type McpApp, type McpDeps } from "./app.ts";
export { SERVICE_TOKEN_HEADER } from "./auth.ts";
export { TOOLS } from "./tools/index.ts";
