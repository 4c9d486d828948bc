import type { Database } from "@ams/db";
import { contextFromClaims, type RequestContext } from "@ams/model";
import { AppError, type ServiceTokens } from "@ams/shared";
import type { ToolCall } from "./tools/define.ts";

export const SERVICE_TOKEN_HEADER = "x-ams-service-token";

const unauthenticated = (message: string) =>
  new AppError("UNAUTHENTICATED", message, { headers: { "WWW-Authenticate": "Bearer" } });

/**
 * The MCP service trusts nothing but the inter-service JWT (audience "mcp") that the control gateway signed after
 * authenticating the personal API token and resolving the role. Builds the same RequestContext as the tenant.
 */
export async function authenticate(
  deps: { database: Database; tokens: ServiceTokens; resolveIcon?: RequestContext["resolveIcon"] },
  header: string | undefined,
): Promise<ToolCall> {
  const { database, tokens } = deps;
  if (!header) throw unauthenticated("This service accepts only requests forwarded by the gateway");
  const claims = await tokens.verify(header, "mcp").catch(() => {
    throw unauthenticated("Missing or invalid service token");
  });
  return {
    claims,
    ctx: contextFromClaims(database, claims, deps.resolveIcon),
  };
}
