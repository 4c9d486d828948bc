import { createPublicKey, sign as cryptoSign, verify as cryptoVerify } from "node:crypto";
import { AppError } from "./errors.ts";
import { type OrgRole, OrgRoles } from "./roles.ts";
import { keyId, keysFromSecret, type ServiceKeys } from "./service-keys.ts";

/**
 * The inter-service JWT: control signs one per forwarded request, tenant and mcp accept nothing else.
 * Ed25519 (EdDSA): control signs with its private key, tenant and mcp verify with the public key; a lifetime of
 * seconds, the issuer checked, one audience per receiving service.
 */
export type ServiceAudience = "tenant" | "mcp";

/** The ways a change reaches a workspace (the change log's `via`). */
export const ViaKinds = ["browser", "api_token", "mcp", "import", "system"] as const;
export type ViaKind = (typeof ViaKinds)[number];
/** How the caller came in: the kind, and the API token's or MCP client's name when there is one. */
export type Via = { kind: ViaKind; name: string | null };

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
  /**
   * The caller's teams in the organization (session profile): a workspace assigned to teams is visible only to
   * their members and to owners, admins and platform admins. Absent from older tokens: none.
   */
  teamIds?: string[];
  /** The caller's display name (the change log's actor name). Absent from older tokens: the username. */
  displayName?: string;
  /**
   * The way the request came in (browser session, API token with its name, MCP client with its name), recorded with
   * every change it makes. Absent from older tokens: inferred from apiTokenId and the audience.
   */
  via?: Via;
};

const ISSUER = "svc-control";
/** Seconds a token is valid: one forwarded request. */
const LIFETIME_SECONDS = 30;
/** Seconds the same claims reuse one signed token (it then still has LIFETIME - REUSE seconds to live). */
const REUSE_SECONDS = 10;
/** Clock difference tolerated between control and the receiving service. */
const CLOCK_SKEW_SECONDS = 5;

export type ServiceTokens = {
  sign(claims: ServiceClaims, audience: ServiceAudience): Promise<string>;
  verify(token: string, audience: ServiceAudience): Promise<ServiceClaims>;
};

/**
 * Ed25519-signed JWTs (alg EdDSA) with node:crypto. Given keys (control: the private key; tenant and mcp: one or two
 * public keys, the second accepted during a rotation), or a shared secret from which one pair is derived (the
 * standalone shape and tests). A service without the private key cannot sign.
 */
export function createServiceTokens(keysOrSecret: ServiceKeys | string): ServiceTokens {
  const keys = typeof keysOrSecret === "string" ? keysFromSecret(keysOrSecret) : keysOrSecret;
  if (keys.publicKeys.length === 0 && !keys.privateKey) throw new Error("service tokens need a key");
  const verifiers = new Map(keys.publicKeys.map((k) => [keyId(k), k]));
  const signingKid = keys.privateKey ? keyId(createPublicKey(keys.privateKey)) : undefined;
  const header = signingKid
    ? Buffer.from(JSON.stringify({ alg: "EdDSA", typ: "JWT", kid: signingKid })).toString("base64url")
    : undefined;
  const invalid = () => new AppError("UNAUTHENTICATED", "Missing or invalid service token");
  // An Ed25519 signature costs about 0.1 ms and its check twice that, on every forwarded request. The gateway
  // decides each request anew, but a caller's decision rarely changes between requests: the same claims reuse
  // one token for REUSE_SECONDS (it then still has 20 s to live), and a receiver checks the signature of a given
  // token once. The claims are the whole cache key, so a changed role, workspace or team list signs a new token.
  const signed = new Map<string, { token: string; iat: number }>();
  const verified = new Map<string, { claims: ServiceClaims; aud: ServiceAudience; exp: number; iat: number }>();
  return {
    async sign(claims, audience) {
      if (!keys.privateKey || !header) throw new Error("this service holds no key to sign inter-service tokens");
      const now = Math.floor(Date.now() / 1000);
      const fields = {
        iss: ISSUER,
        aud: audience,
        sub: claims.userId,
        usr: claims.username,
        org: claims.organizationId,
        ws: claims.workspaceId,
        role: claims.role,
        adm: claims.platformAdmin,
        tok: claims.apiTokenId,
        pin: claims.pinnedWorkspaceId ?? null,
        ...(claims.teamIds ? { teams: claims.teamIds } : {}),
        ...(claims.displayName !== undefined ? { dn: claims.displayName } : {}),
        ...(claims.via ? { via: claims.via } : {}),
      };
      const key = JSON.stringify(fields);
      const reused = signed.get(key);
      // A clock set back (or a token from a future second) is never reused: its iat would be ahead of now.
      if (reused && now >= reused.iat && now - reused.iat <= REUSE_SECONDS) return reused.token;
      const payload = { ...fields, iat: now, exp: now + LIFETIME_SECONDS };
      const body = `${header}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}`;
      const token = `${body}.${cryptoSign(null, Buffer.from(body), keys.privateKey).toString("base64url")}`;
      remember(signed, key, { token, iat: now });
      return token;
    },
    async verify(token, audience) {
      const known = verified.get(token);
      if (known) {
        // The same bytes were verified before: only what depends on the time and the audience is checked again.
        const now = Math.floor(Date.now() / 1000);
        if (known.aud !== audience || known.exp + CLOCK_SKEW_SECONDS < now) throw invalid();
        if (known.iat - CLOCK_SKEW_SECONDS > now) throw invalid();
        return known.claims;
      }
      const parts = token.split(".");
      const [headPart, payloadPart, signaturePart] = parts;
      if (parts.length !== 3 || headPart === undefined || payloadPart === undefined || signaturePart === undefined) {
        throw invalid();
      }
      let head: { alg?: string; kid?: string };
      let payload: Record<string, unknown>;
      try {
        head = JSON.parse(Buffer.from(headPart, "base64url").toString("utf8"));
        payload = JSON.parse(Buffer.from(payloadPart, "base64url").toString("utf8"));
      } catch {
        throw invalid();
      }
      if (head.alg !== "EdDSA" || typeof payload !== "object" || payload === null) throw invalid();
      const key = head.kid ? verifiers.get(head.kid) : undefined;
      const data = Buffer.from(`${headPart}.${payloadPart}`);
      const signature = Buffer.from(signaturePart, "base64url");
      if (!key || !cryptoVerify(null, data, key, signature)) throw invalid();
      const now = Math.floor(Date.now() / 1000);
      if (payload.iss !== ISSUER || payload.aud !== audience) throw invalid();
      if (typeof payload.exp !== "number" || payload.exp + CLOCK_SKEW_SECONDS < now) throw invalid();
      if (typeof payload.iat !== "number" || payload.iat - CLOCK_SKEW_SECONDS > now) throw invalid();
      if (payload.exp - payload.iat > LIFETIME_SECONDS) throw invalid();
      const role = payload.role ?? null;
      if (typeof payload.sub !== "string" || (role !== null && !OrgRoles.includes(role as OrgRole))) throw invalid();
      const verifiedClaims: ServiceClaims = Object.freeze({
        userId: payload.sub,
        username: String(payload.usr ?? ""),
        organizationId: (payload.org as string | null) ?? null,
        workspaceId: (payload.ws as string | null) ?? null,
        role: role as OrgRole | null,
        platformAdmin: payload.adm === true,
        apiTokenId: (payload.tok as string | null) ?? null,
        pinnedWorkspaceId: typeof payload.pin === "string" ? payload.pin : null,
        ...(Array.isArray(payload.teams)
          ? { teamIds: Object.freeze(payload.teams.filter((t): t is string => typeof t === "string")) as string[] }
          : {}),
        ...(typeof payload.dn === "string" ? { displayName: payload.dn } : {}),
        ...viaClaim(payload.via),
      });
      remember(verified, token, { claims: verifiedClaims, aud: audience, exp: payload.exp, iat: payload.iat });
      return verifiedClaims;
    },
  };
}

function viaClaim(value: unknown): { via?: Via } {
  if (typeof value !== "object" || value === null) return {};
  const { kind, name } = value as { kind?: unknown; name?: unknown };
  if (typeof kind !== "string" || !(ViaKinds as readonly string[]).includes(kind)) return {};
  return { via: Object.freeze({ kind: kind as ViaKind, name: typeof name === "string" ? name : null }) };
}

/** Entries kept per cache: enough for every caller active within a few seconds; the map is cleared when full. */
const CACHE_ENTRIES = 4096;
function remember<V>(cache: Map<string, V>, key: string, value: V) {
  if (cache.size >= CACHE_ENTRIES) cache.clear();
  cache.set(key, value);
}
