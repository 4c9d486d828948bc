import { AppError } from "@ams/shared";
import { IDP_TIMEOUT_MS } from "./discovery.ts";

/** The token endpoint's answer (RFC 6749 5.1; refresh_expires_in is Keycloak's refresh-token lifetime). */
export type TokenResponse = {
  access_token: string;
  token_type?: string;
  expires_in?: number;
  refresh_token?: string;
  refresh_expires_in?: number;
  id_token?: string;
};

export type ClientCredentials = { clientId: string; clientSecret?: string };

/** The provider refused the grant (invalid_grant and the like): for a refresh, the session is over. */
export class GrantRefused extends Error {}

/**
 * POSTs a grant to the token endpoint. A confidential client authenticates with HTTP Basic (client_secret_basic,
 * RFC 6749 2.3.1 encoding); a public client sends only its client_id.
 */
export async function requestTokens(
  tokenEndpoint: string,
  client: ClientCredentials,
  params: Record<string, string>,
): Promise<TokenResponse> {
  const body = new URLSearchParams(params);
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    accept: "application/json",
  };
  if (client.clientSecret) {
    const basic = `${formEncode(client.clientId)}:${formEncode(client.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(basic).toString("base64")}`;
  } else {
    body.set("client_id", client.clientId);
  }
  let res: Response;
  try {
    res = await fetch(tokenEndpoint, { method: "POST", headers, body, signal: AbortSignal.timeout(IDP_TIMEOUT_MS) });
  } catch {
    throw new AppError("UNAVAILABLE", "The identity provider is unavailable; try again shortly");
  }
  const json = (await res.json().catch(() => null)) as (TokenResponse & { error?: string }) | null;
  if (res.status >= 400 && res.status < 500) throw new GrantRefused(json?.error ?? `HTTP ${res.status}`);
  if (!res.ok || !json || typeof json.access_token !== "string") {
    throw new AppError("UNAVAILABLE", "The identity provider answered the token request with an error");
  }
  return json;
}

const formEncode = (value: string) => encodeURIComponent(value).replace(/%20/g, "+");
