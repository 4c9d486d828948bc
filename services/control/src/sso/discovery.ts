import { AppError } from "@ams/shared";

export type ProviderMetadata = {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  end_session_endpoint?: string;
};

export const IDP_TIMEOUT_MS = 10_000;

/**
 * The realm's OpenID configuration, fetched on first use and kept; a failed fetch is not cached, so the service
 * starts while the provider is down and recovers when it is back. The advertised issuer must be ours exactly.
 */
export function createDiscovery(issuer: string): () => Promise<ProviderMetadata> {
  let cached: Promise<ProviderMetadata> | null = null;
  const load = async (): Promise<ProviderMetadata> => {
    let res: Response;
    try {
      res = await fetch(`${issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(IDP_TIMEOUT_MS) });
    } catch {
      throw unavailable();
    }
    if (!res.ok) throw unavailable();
    const meta = (await res.json()) as Partial<ProviderMetadata>;
    if (meta.issuer !== issuer) {
      throw new AppError("UNAVAILABLE", "The identity provider advertises another issuer than the configured realm");
    }
    if (!meta.authorization_endpoint || !meta.token_endpoint || !meta.jwks_uri) throw unavailable();
    return meta as ProviderMetadata;
  };
  return () => {
    cached ??= load().catch((err) => {
      cached = null;
      throw err;
    });
    return cached;
  };
}

const unavailable = () => new AppError("UNAVAILABLE", "The identity provider is unavailable; try again shortly");
