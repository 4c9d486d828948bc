import { oauthClients } from "@ams/db";
import { eq } from "drizzle-orm";
import type { ControlContext } from "../context.ts";
import { oauthEndpoints } from "./endpoints.ts";

/** The parameters of an authorization request, as the client sent them (query or form). */
export type AuthorizationParams = {
  response_type?: string;
  client_id?: string;
  redirect_uri?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  state?: string;
  scope?: string;
  resource?: string;
};

export const PARAM_NAMES = [
  "response_type",
  "client_id",
  "redirect_uri",
  "code_challenge",
  "code_challenge_method",
  "state",
  "scope",
  "resource",
] as const;

export function pickParams(source: Record<string, unknown>): AuthorizationParams {
  const out: AuthorizationParams = {};
  for (const k of PARAM_NAMES) {
    const v = source[k];
    if (typeof v === "string" && v.length <= 2000) out[k] = v;
  }
  return out;
}

/**
 * A checked authorization request. Every fault found before the user has decided is `fatal`: shown to the user,
 * never redirected. All clients here register themselves (RFC 7591) with any https redirect URI, so an error
 * redirect without the user's involvement would make this service an open redirector (RFC 9700 section 4.11.2);
 * only the user's decision on the consent page sends the browser back to the client.
 */
export type CheckedRequest =
  | { kind: "fatal"; message: string }
  | {
      kind: "ok";
      clientId: string;
      clientName: string;
      redirectUri: string;
      codeChallenge: string;
      state?: string;
    };

const CHALLENGE = /^[A-Za-z0-9_-]{43,128}$/;

export async function checkAuthorizationRequest(ctx: ControlContext, p: AuthorizationParams): Promise<CheckedRequest> {
  if (!p.client_id) return { kind: "fatal", message: "The request names no client (client_id is missing)." };
  const [client] = await ctx.database.db.select().from(oauthClients).where(eq(oauthClients.clientId, p.client_id));
  if (!client) return { kind: "fatal", message: "This client is not registered with the service." };
  const redirectUri = p.redirect_uri ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
  if (!redirectUri || !client.redirectUris.includes(redirectUri)) {
    return { kind: "fatal", message: "The redirect URI is not one the client registered." };
  }
  const fault = (error: string, description: string) =>
    ({ kind: "fatal", message: `The client's request is not valid (${error}): ${description}.` }) as const;
  if (p.response_type !== "code") return fault("unsupported_response_type", "only response_type=code is supported");
  if (!p.code_challenge || !CHALLENGE.test(p.code_challenge) || p.code_challenge_method !== "S256") {
    return fault("invalid_request", "PKCE is required: code_challenge with code_challenge_method=S256");
  }
  if (p.resource !== undefined && !isThisResource(ctx, p.resource)) {
    return fault("invalid_target", `the only resource here is ${oauthEndpoints(ctx.env.PUBLIC_URL).resource}`);
  }
  return {
    kind: "ok",
    clientId: client.clientId,
    clientName: client.clientName,
    redirectUri,
    codeChallenge: p.code_challenge,
    state: p.state,
  };
}

/** Whether a `resource` parameter (RFC 8707) names this service's one protected resource, the MCP endpoint. */
export function isThisResource(ctx: ControlContext, resource: string): boolean {
  const own = oauthEndpoints(ctx.env.PUBLIC_URL).resource;
  return resource.replace(/\/+$/, "") === own.replace(/\/+$/, "");
}

/** The client's redirect URI with the answer's parameters added (and the issuer, RFC 9207). */
export function redirectTo(ctx: ControlContext, uri: string, values: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(values)) if (v !== undefined) url.searchParams.set(k, v);
  url.searchParams.set("iss", oauthEndpoints(ctx.env.PUBLIC_URL).issuer);
  return url.toString();
}
