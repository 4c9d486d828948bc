import type { Database } from "@ams/db";
import { identityFromClaims } from "../auth/claims.ts";
import type { Identity } from "../auth/principal.ts";
import type { SsoConfig } from "./config.ts";
import { createDiscovery, type ProviderMetadata } from "./discovery.ts";
import type { IdentityAdmin } from "./identity-admin.ts";
import { createKeycloakAdmin } from "./keycloak-admin.ts";
import { type ClientCredentials, requestTokens, type TokenResponse } from "./token-endpoint.ts";
import { upsertExternalUser } from "./user-sync.ts";
import { createOidcVerifier, type OidcVerifier } from "./verify.ts";

/** Everything the SSO flow needs, built once per process from the configuration. */
export type SsoRuntime = {
  config: SsoConfig;
  discovery: () => Promise<ProviderMetadata>;
  verifier: OidcVerifier;
  client: ClientCredentials;
  /** Present when the admin client is configured. */
  admin?: IdentityAdmin;
  /** Exchanges a grant at the token endpoint, verifies both tokens and mirrors the identity into users. */
  grant(params: Record<string, string>): Promise<{ tokens: TokenResponse; identity: Identity }>;
};

export function createSsoRuntime(opts: { config: SsoConfig; database: Database; clock: () => Date }): SsoRuntime {
  const { config, database, clock } = opts;
  const discovery = createDiscovery(config.issuer);
  const verifier = createOidcVerifier({
    issuer: config.issuer,
    discovery,
    clock,
    clientId: config.clientId,
    audiences: config.accessTokenAudiences,
  });
  const client: ClientCredentials = { clientId: config.clientId, clientSecret: config.clientSecret };
  const admin = config.admin
    ? createKeycloakAdmin({
        adminBaseUrl: config.adminBaseUrl,
        tokenEndpoint: async () => (await discovery()).token_endpoint,
        clientId: config.admin.clientId,
        clientSecret: config.admin.clientSecret,
      })
    : undefined;

  return {
    config,
    discovery,
    verifier,
    client,
    admin,
    async grant(params) {
      const tokens = await requestTokens((await discovery()).token_endpoint, client, params);
      const { identity, claims } = await verifyTokens(verifier, config.clientId, tokens);
      await upsertExternalUser(
        database.db,
        {
          id: identity.userId,
          username: identity.username,
          name: typeof claims.name === "string" ? claims.name : identity.name,
          email: typeof claims.email === "string" ? claims.email : null,
          emailVerified: claims.email_verified === true,
          platformAdmin: identity.platformAdmin,
        },
        clock(),
      );
      return { tokens, identity };
    },
  };
}

export class InvalidProviderToken extends Error {}

/**
 * Both tokens must verify against the realm: the access token (it becomes the access_token cookie the gateway
 * checks on every request) and, when present, the ID token for our client with the same subject.
 */
async function verifyTokens(verifier: OidcVerifier, clientId: string, tokens: TokenResponse) {
  let access: Awaited<ReturnType<OidcVerifier["accessClaims"]>>;
  try {
    access = await verifier.accessClaims(tokens.access_token);
  } catch (err) {
    throw new InvalidProviderToken(`access token: ${(err as Error).message}`);
  }
  let id: typeof access = {};
  if (tokens.id_token) {
    try {
      id = await verifier.idClaims(tokens.id_token, clientId);
    } catch (err) {
      throw new InvalidProviderToken(`ID token: ${(err as Error).message}`);
    }
    if (id.sub !== access.sub) throw new InvalidProviderToken("ID token and access token name different subjects");
  }
  const identity = identityFromClaims(access, "oidc");
  if (!identity) throw new InvalidProviderToken("access token lacks sub or preferred_username");
  return { identity, claims: { ...id, ...access } };
}
