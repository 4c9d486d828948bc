import { AppError } from "../errors.ts";
import type { ServiceAudience, ServiceClaims, ServiceTokens } from "../service-token.ts";

/** The header that carries the inter-service JWT from the gateway to tenant and mcp. */
export const SERVICE_TOKEN_HEADER = "x-ams-service-token";

const unauthenticated = (message: string) =>
  new AppError("UNAUTHENTICATED", message, { headers: { "WWW-Authenticate": "Bearer" } });

/**
 * The claims of a request the gateway forwarded: tenant and mcp trust nothing else. A missing header or a token that
 * does not verify for this audience is a 401.
 */
export async function serviceClaimsOf(
  tokens: ServiceTokens,
  header: string | undefined | null,
  audience: ServiceAudience,
): Promise<ServiceClaims> {
  if (!header) throw unauthenticated("This service accepts only requests forwarded by the gateway");
  return tokens.verify(header, audience).catch(() => {
    throw unauthenticated("Missing or invalid service token");
  });
}
