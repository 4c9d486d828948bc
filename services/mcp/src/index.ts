export { SERVICE_TOKEN_HEADER } from "@ams/shared/http";
export { createMcpApp, MCP_PATHS, type McpApp, type McpDeps } from "./app.ts";
export { TOOLS } from "./tools/index.ts";
