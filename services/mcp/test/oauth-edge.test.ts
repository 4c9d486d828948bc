import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Stack, startStack } from "./support/stack.ts";

/**
 * Issue 22, findings 11 and 12, tried as an outsider would: a self-registered client cannot use the authorization
 * endpoint's errors to redirect a browser anywhere (RFC 9700 4.11), OAuth-issued tokens are for the MCP endpoint
 * alone, and the token endpoint checks resource and redirect_uri and lets no other client burn a code.
 */
let stack: Stack;
let workspaceId: string;
type Session = Awaited<ReturnType<Stack["signIn"]>>;
let archi: Session;

beforeAll(async () => {
  stack = await startStack({ env: { TRUST_PROXY_HOPS: "1" } });
  archi = await stack.signIn("archi");
  workspaceId = (await archi.call("POST", "/api/workspaces", { name: "Kept" })).body.id;
}, 120_000);
afterAll(() => stack?.close());

const EVIL = "https://evil.example/cb";
const LOOPBACK = "http://127.0.0.1:9/callback";

async function register(redirectUris: string[], name = "Edge client") {
  const res = await stack.http("POST", "/oauth/register", { body: { client_name: name, redirect_uris: redirectUris } });
  expect(res.status).toBe(201);
  return res.body.client_id as string;
}

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

const authorize = (params: Record<string, string>, ip = "198.51.100.1") =>
  fetch(`${stack.base}/oauth/authorize?${new URLSearchParams(params)}`, {
    redirect: "manual",
    headers: { "x-forwarded-for": ip },
  });

/** A code the user granted to `clientId` for `redirectUri` (the consent page's two calls). */
async function grantedCode(clientId: string, redirectUri: string, challenge: string) {
  const res = await authorize({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "s1",
  });
  expect(res.status).toBe(302);
  const handle = new URL(res.headers.get("location") ?? "", stack.base).searchParams.get("request") ?? "";
  const described = await archi.call("GET", `/api/oauth/requests/${handle}`);
  const decided = await archi.call("POST", `/api/oauth/requests/${handle}/decision`, {
    decision: "allow",
    consent: described.body.consent,
    organization_id: archi.organizationId,
  });
  expect(decided.status).toBe(200);
  return new URL(decided.body.redirect_to).searchParams.get("code") ?? "";
}

const token = (body: Record<string, string>) =>
  fetch(`${stack.base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(body).toString(),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, string> }));

describe("finding 11: no error redirects before the user decided", () => {
  test("a bogus response_type, a missing PKCE challenge or a foreign resource is an error page, never a 302", async () => {
    const clientId = await register([EVIL], "Open redirect probe");
    const { challenge } = pkce();
    const base = { client_id: clientId, redirect_uri: EVIL, code_challenge: challenge, code_challenge_method: "S256" };
    const cases: [Record<string, string>, string][] = [
      [{ ...base, response_type: "bogus" }, "unsupported_response_type"],
      [{ client_id: clientId, response_type: "code", state: "x" }, "PKCE is required"],
      [{ ...base, response_type: "code", resource: "https://other.example/" }, "invalid_target"],
    ];
    for (const [params, says] of cases) {
      const res = await authorize(params);
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(res.headers.get("content-type")).toContain("text/html");
      const page = await res.text();
      expect(page).toContain(says);
      expect(page).not.toContain("evil.example");
    }
  });

  test("each address may store 60 authorization requests in 15 minutes, then 429 with Retry-After", async () => {
    const clientId = await register([LOOPBACK], "Burst client");
    const { challenge } = pkce();
    const params = {
      response_type: "code",
      client_id: clientId,
      code_challenge: challenge,
      code_challenge_method: "S256",
    };
    for (let i = 0; i < 60; i++) expect((await authorize(params, "203.0.113.9")).status).toBe(302);
    const refused = await authorize(params, "203.0.113.9");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(800);
    expect(((await refused.json()) as { detail: string }).detail).toContain("Too many authorization requests");
    expect((await authorize(params, "203.0.113.10")).status).toBe(302);
  });
});

describe("finding 12: OAuth-issued tokens and the token endpoint", () => {
  test("an OAuth access token works on the MCP endpoint and is refused with 403 on every REST route", async () => {
    const clientId = await register([LOOPBACK], "MCP only");
    const { verifier, challenge } = pkce();
    const code = await grantedCode(clientId, LOOPBACK, challenge);
    const issued = await token({
      grant_type: "authorization_code",
      client_id: clientId,
      redirect_uri: LOOPBACK,
      code,
      code_verifier: verifier,
    });
    expect(issued.status).toBe(200);
    const access = issued.body.access_token ?? "";
    const mcp = await stack.http("POST", "/mcp/", {
      headers: { authorization: `Bearer ${access}`, accept: "application/json, text/event-stream" },
      body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    });
    expect(mcp.status).toBe(200);
    const deleted = await stack.rest(access, "DELETE", `/api/workspaces/${workspaceId}`);
    expect(deleted.status).toBe(403);
    expect(deleted.body.detail).toContain("MCP endpoint");
    expect((await stack.rest(access, "GET", "/api/workspaces")).status).toBe(403);
    expect((await stack.rest(access, "POST", "/api/elements", { name: "X", type: "Node" })).status).toBe(403);
    // The workspace is still there; a personal API token still works on REST.
    const pat = await stack.apiToken(archi);
    const list = await stack.rest(pat.token, "GET", "/api/workspaces");
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).toContain(workspaceId);
  });

  test("resource must be this service's MCP endpoint (invalid_target), and the code is kept for a good request", async () => {
    const clientId = await register([LOOPBACK], "Resource check");
    const { verifier, challenge } = pkce();
    const code = await grantedCode(clientId, LOOPBACK, challenge);
    const exchange = (extra: Record<string, string>) =>
      token({
        grant_type: "authorization_code",
        client_id: clientId,
        redirect_uri: LOOPBACK,
        code,
        code_verifier: verifier,
        ...extra,
      });
    const foreign = await exchange({ resource: "https://api.other.example/" });
    expect(foreign).toMatchObject({ status: 400, body: { error: "invalid_target" } });
    const ok = await exchange({ resource: `${stack.base}/mcp/` });
    expect(ok.status).toBe(200);
    const renewed = await token({
      grant_type: "refresh_token",
      client_id: clientId,
      refresh_token: ok.body.refresh_token ?? "",
      resource: "https://api.other.example/",
    });
    expect(renewed).toMatchObject({ status: 400, body: { error: "invalid_target" } });
  });

  test("redirect_uri is required when the client registered several, and must be the request's", async () => {
    const other = "http://127.0.0.1:9/other";
    const clientId = await register([LOOPBACK, other], "Two redirects");
    const { verifier, challenge } = pkce();
    const code = await grantedCode(clientId, LOOPBACK, challenge);
    const base = { grant_type: "authorization_code", client_id: clientId, code, code_verifier: verifier };
    const missing = await token(base);
    expect(missing).toMatchObject({ status: 400, body: { error: "invalid_request" } });
    expect(missing.body.error_description).toContain("redirect_uri is required");
    const wrong = await token({ ...base, redirect_uri: other });
    expect(wrong).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect(wrong.body.error_description).toContain("redirect_uri differs");
  });

  test("another client presenting the code with its own verifier does not burn it for its owner", async () => {
    const owner = await register([LOOPBACK], "Code owner");
    const thief = await register([LOOPBACK], "Code thief");
    const { verifier, challenge } = pkce();
    const code = await grantedCode(owner, LOOPBACK, challenge);
    const stolen = await token({
      grant_type: "authorization_code",
      client_id: thief,
      redirect_uri: LOOPBACK,
      code,
      code_verifier: pkce().verifier,
    });
    expect(stolen).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const rightful = await token({
      grant_type: "authorization_code",
      client_id: owner,
      redirect_uri: LOOPBACK,
      code,
      code_verifier: verifier,
    });
    expect(rightful.status).toBe(200);
    expect(rightful.body.access_token).toMatch(/^ams_/);
  });
});
