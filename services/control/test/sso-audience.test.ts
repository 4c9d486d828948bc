import { createHash } from "node:crypto";
import { must } from "@ams/shared/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createIdentityProviderDeps } from "../src/sso/index.ts";
import { createBrowser, redirectTarget } from "./support/browser.ts";
import { createIdentityHarness, type IdentityHarness } from "./support/identity-harness.ts";
import { NEIGHBOUR_CLIENT, type OidcRealms, type Realm, startOidcRealms, WEB_CLIENT } from "./support/oidc-realm.ts";

/**
 * Security finding 15: an access token of our realm is accepted only when it was issued to our client (`azp`) or
 * names it, or an audience configured with IDP_ACCESS_TOKEN_AUDIENCE, in `aud`. A token the same realm issued to
 * another application (the tests' real OIDC provider, client svc-neighbour: aud "account", azp svc-neighbour) is
 * refused.
 */
const APP = "http://control.test";

let realms: OidcRealms;
let acme: Realm;
let h: IdentityHarness;

const envFor = (extra: Record<string, string> = {}) => ({
  PUBLIC_URL: APP,
  IDP_SSO_ENABLED: "true",
  IDP_URL: realms.url,
  IDP_REALM: "svc-acme",
  IDP_CLIENT_ID_WEB: WEB_CLIENT.id,
  IDP_CLIENT_SECRET_WEB: WEB_CLIENT.secret,
  ...extra,
});

const harness = (extra: Record<string, string> = {}) =>
  createIdentityHarness({
    env: envFor(extra),
    deps: (base) => createIdentityProviderDeps({ env: base.env, database: base.database, clock: base.clock.now }),
  });

beforeAll(async () => {
  realms = await startOidcRealms({ realms: ["svc-acme"], appUrl: APP });
  acme = realms.realm("svc-acme");
  acme.addUser({ username: "alice", password: "alice-pw", email: "alice@acme.test", emailVerified: true });
  h = await harness();
}, 30_000);
afterAll(async () => {
  await h?.close();
  await realms?.close();
});

/** Alice signs in at the provider through `client` (authorization code with PKCE); its access token. */
async function tokenFor(client: { id: string; secret: string }, redirectUri: string): Promise<string> {
  const browser = createBrowser(h.app, "control.test");
  const verifier = "v".repeat(43);
  const auth = new URL(`${acme.issuer}/protocol/openid-connect/auth`);
  auth.search = new URLSearchParams({
    response_type: "code",
    client_id: client.id,
    redirect_uri: redirectUri,
    scope: "openid profile email",
    state: "s",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  }).toString();
  const hops = await browser.follow(auth.toString(), {}, 5, (u) => u.includes("/interaction/"));
  const back = await browser.follow(
    redirectTarget(hops).toString(),
    {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: "alice", password: "alice-pw" }).toString(),
    },
    10,
    (u) => u.startsWith(APP),
  );
  const code = must(redirectTarget(back).searchParams.get("code") ?? undefined, "the authorization code");
  const res = await fetch(`${acme.issuer}/protocol/openid-connect/token`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}`,
    },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(must(token.split(".")[1], "the JWT payload"), "base64url").toString()) as Record<
    string,
    unknown
  >;

describe("access tokens are checked for aud / azp", () => {
  test("a token the realm issued to another application is refused; ours (azp = our client) is accepted", async () => {
    const theirs = await tokenFor(NEIGHBOUR_CLIENT, `${APP}/neighbour/callback`);
    expect(claimsOf(theirs)).toMatchObject({ iss: acme.issuer, aud: "account", azp: NEIGHBOUR_CLIENT.id });
    expect((await h.call("GET", "/api/auth/me", { as: { bearer: theirs } })).status).toBe(401);
    const ours = await tokenFor(WEB_CLIENT, `${APP}/api/auth/callback`);
    expect(claimsOf(ours)).toMatchObject({ aud: "account", azp: WEB_CLIENT.id });
    expect((await h.call("GET", "/api/auth/me", { as: { bearer: ours } })).status).toBe(200);
  });

  test("IDP_ACCESS_TOKEN_AUDIENCE accepts a provider's own audience for tokens of other clients", async () => {
    const configured = await harness({ IDP_ACCESS_TOKEN_AUDIENCE: "urn:elsewhere, account" });
    try {
      const theirs = await tokenFor(NEIGHBOUR_CLIENT, `${APP}/neighbour/callback`);
      expect((await configured.call("GET", "/api/auth/me", { as: { bearer: theirs } })).status).toBe(200);
    } finally {
      await configured.close();
    }
  });
});
