import type { Database } from "@ams/db";
import { contextFromClaims, type RequestContext } from "@ams/model";
import type { ServiceTokens } from "@ams/shared";
import { type RequestIdVariables, SERVICE_TOKEN_HEADER, serviceClaimsOf } from "@ams/shared/http";
import type { MiddlewareHandler } from "hono";

export type TenantEnv = { Variables: { ctx: RequestContext } & RequestIdVariables };

/** The tenant trusts nothing but the inter-service JWT that the control gateway signed for this request. */
export function verifyServiceToken(
  database: Database,
  tokens: ServiceTokens,
  resolveIcon?: RequestContext["resolveIcon"],
): MiddlewareHandler<TenantEnv> {
  return async (c, next) => {
    if (isPublicPath(c.req.method, c.req.path)) return next();
    const claims = await serviceClaimsOf(tokens, c.req.header(SERVICE_TOKEN_HEADER), "tenant");
    c.set("ctx", { ...contextFromClaims(database, claims, resolveIcon), requestId: c.var.requestId });
    await next();
  };
}

/** Routes that answer without any caller: the health probe, the OpenAPI document and the public plugin icons. */
const PUBLIC_ICON = /^\/api\/plugins\/[^/]+\/icons\/[^/]+$/;
export function isPublicPath(method: string, path: string): boolean {
  return (
    (method === "GET" || method === "HEAD") &&
    (path === "/api/health" || path === "/api/openapi.json" || PUBLIC_ICON.test(path))
  );
}
