import type { Context } from "hono";
import type { ControlContext } from "../context.ts";
import { setFlowCookies, setOidcSessionCookies, takeFlowCookies } from "./cookies.ts";
import { createPkcePair, createState, sameSecret } from "./pkce.ts";
import { InvalidProviderToken, type SsoRuntime } from "./runtime.ts";
import { safeRedirectPath } from "./safe-redirect.ts";
import { GrantRefused } from "./token-endpoint.ts";

/** Scopes of a Keycloak web sign-in: the ID token, profile (preferred_username, name) and e-mail claims. */
const SCOPE = "openid profile email";

/**
 * Step 1: a PKCE pair (S256) and a state, kept 5 minutes in httpOnly cookies with the same-site path to return
 * to, then off to the provider's authorization endpoint.
 */
export async function startSignIn(c: Context, sso: SsoRuntime, from: string | undefined): Promise<Response> {
  const meta = await sso.discovery();
  const { verifier, challenge } = createPkcePair();
  const state = createState();
  setFlowCookies(c, { verifier, state, redirect: safeRedirectPath(from) });
  const url = new URL(meta.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: sso.config.clientId,
    redirect_uri: sso.config.redirectUri,
    scope: SCOPE,
    state,
    code_challenge: challenge,
    code_challenge_method: "S256",
  }).toString();
  return c.redirect(url.toString(), 302);
}

/**
 * Step 2: the state must match the cookie (constant time), the code is exchanged with the PKCE verifier, both
 * tokens are verified against the realm's keys and issuer, the identity is mirrored into users, and the session
 * cookies are set. Any failure sends the browser to /login with an error code and no session.
 */
export async function completeSignIn(c: Context, ctx: ControlContext, sso: SsoRuntime): Promise<Response> {
  const flow = takeFlowCookies(c);
  const fail = (code: string) => c.redirect(`/login?error=${code}`, 302);
  const state = c.req.query("state");
  if (!sameSecret(state, flow.state) || !flow.verifier) return fail("state_mismatch");
  if (c.req.query("error")) return fail("provider_refused");
  const code = c.req.query("code");
  if (!code) return fail("missing_code");
  try {
    const { tokens } = await sso.grant({
      grant_type: "authorization_code",
      code,
      redirect_uri: sso.config.redirectUri,
      code_verifier: flow.verifier,
    });
    setOidcSessionCookies(c, tokens);
  } catch (err) {
    if (err instanceof GrantRefused) return fail("code_rejected");
    if (err instanceof InvalidProviderToken) {
      ctx.log.error("identity provider returned a token that does not verify", { err });
      return fail("invalid_token");
    }
    throw err;
  }
  return c.redirect(safeRedirectPath(flow.redirect), 302);
}
