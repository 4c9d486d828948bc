import type { Database } from "@ams/db";
import { contextFromClaims, type GraphProvider, type RequestContext } from "@ams/model";
import type { ServiceTokens } from "@ams/shared";
import { serviceClaimsOf } from "@ams/shared/http";
import type { ToolCall } from "./tools/define.ts";

/**
 * The MCP service trusts nothing but the inter-service JWT (audience "mcp") that the control gateway signed after
 * authenticating the personal API token and resolving the role. Builds the same RequestContext as the tenant.
 */
export async function authenticate(
  deps: {
    database: Database;
    tokens: ServiceTokens;
    resolveIcon?: RequestContext["resolveIcon"];
    graph?: GraphProvider;
  },
  header: string | undefined,
): Promise<ToolCall> {
  const claims = await serviceClaimsOf(deps.tokens, header, "mcp");
  return {
    claims,
    ctx: contextFromClaims(deps.database, claims, deps.resolveIcon, "mcp"),
    graph: deps.graph,
  };
}
