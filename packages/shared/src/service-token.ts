import { AppError } from "./errors.ts";
import { signHs256, verifyHs256 } from "./hs256.ts";
import { type OrgRole, OrgRoles } from "./roles.ts";

/**
 * The inter-service JWT: control signs one per forwarded request, tenant and mcp accept nothing else.
 * HS256 with TENANT_JWT_SECRET, a lifetime of seconds and one audience per receiving service.
 */
export type ServiceAudience = "tenant" | "mcp";

export type ServiceClaims = {
  userId: string;
  username: string;
  organizationId: string | null;
  workspaceId: string | null;
  role: OrgRole | null;
  /** True when the identity carries the platform_admin realm role. */
  platformAdmin: boolean;
  /** Set when the caller authenticated with a personal API token (its id). */
  apiTokenId: string | null;
  /**
   * The one workspace an API token is pinned to, when it is: such a caller is confined to that workspace (it cannot
   * list others, create workspaces or move its owner's active workspace). Absent from older tokens: null.
   */
  pinnedWorkspaceId?: string | null;
};

const ISSUER = "svc-control";
const LIFETIME_SECONDS = 30;

export type ServiceTokens = {
  sign(claims: ServiceClaims, audience: ServiceAudience): Promise<string>;
  verify(token: string, audience: ServiceAudience): Promise<ServiceClaims>;
};

export function createServiceTokens(secret: string): ServiceTokens {
  if (secret.length < 32) throw new Error("TENANT_JWT_SECRET must be at least 32 characters");
  const key = Buffer.from(secret, "utf8");
  return {
    async sign(claims, audience) {
      const iat = Math.floor(Date.now() / 1000);
      return signHs256(
        {
          iss: ISSUER,
          aud: audience,
          sub: claims.userId,
          iat,
          exp: iat + LIFETIME_SECONDS,
          usr: claims.username,
          org: claims.organizationId,
          ws: claims.workspaceId,
          role: claims.role,
          adm: claims.platformAdmin,
          tok: claims.apiTokenId,
          pin: claims.pinnedWorkspaceId ?? null,
        },
        key,
      );
    },
    async verify(token, audience) {
      const payload = verifyHs256(token, key, { issuer: ISSUER, audience });
      const role = payload?.role ?? null;
      if (!payload || typeof payload.sub !== "string" || (role !== null && !OrgRoles.includes(role as OrgRole))) {
        throw new AppError("UNAUTHENTICATED", "Missing or invalid service token");
      }
      return {
        userId: payload.sub,
        username: String(payload.usr ?? ""),
        organizationId: (payload.org as string | null) ?? null,
        workspaceId: (payload.ws as string | null) ?? null,
        role: role as OrgRole | null,
        platformAdmin: payload.adm === true,
        apiTokenId: (payload.tok as string | null) ?? null,
        pinnedWorkspaceId: typeof payload.pin === "string" ? payload.pin : null,
      };
    },
  };
}
