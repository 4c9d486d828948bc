import { oauthClients, sql } from "@ams/db";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ensureWebBuild, WEB_DIST } from "../../../apps/web/build.ts";
import { seriousViolations } from "../../../apps/web/test/support/axe.ts";
import { launchChromium, screenshot } from "../../../apps/web/test/support/browser.ts";
import { type Stack, startStack, textOf } from "./support/stack.ts";

/**
 * An MCP client without a hand-made token, as the MCP authorization specification has it: the official SDK client
 * discovers the OAuth endpoints from the 401, registers itself, sends the user to the consent page of the browser
 * UI, exchanges the code (PKCE), calls tools with the token and renews it with its refresh token. The user's
 * browser is Debian's Chromium in one test (the pages as a person uses them: sign-in, choice, Allow and Deny); the
 * others call the consent page's two JSON routes as its script does, to probe what the page would not let a person
 * do.
 */
let stack: Stack;
let workspaceId: string;
let organizationId: string;
type Session = Awaited<ReturnType<Stack["signIn"]>>;

beforeAll(async () => {
  await ensureWebBuild();
  stack = await startStack({ webDir: WEB_DIST });
  const archi = await stack.signIn("archi");
  organizationId = archi.organizationId;
  workspaceId = (await archi.call("POST", "/api/workspaces", { name: "Granted" })).body.id;
  await archi.call("POST", "/api/workspaces", { name: "Other" });
}, 180_000);
afterAll(() => stack?.close());

const REDIRECT = "http://127.0.0.1:9/callback";

/** What an MCP host keeps for one server: its registration, the PKCE verifier, the tokens; the URL it opened. */
class MemoryProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  opened?: URL;
  private readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: this.name, redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.opened = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

async function connect(provider: MemoryProvider, base = stack.base) {
  const client = new Client({ name: "oauth-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp/`), { authProvider: provider });
  await client.connect(transport);
  return { client, transport };
}

/** A provider whose first connection was refused: registered, with the authorization URL it would open. */
async function started(name: string, base = stack.base) {
  const provider = new MemoryProvider(name);
  const client = new Client({ name: "oauth-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp/`), { authProvider: provider });
  await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.client?.client_id).toMatch(/^mcp_/);
  return provider;
}

/** The authorization endpoint's answer: a redirect to the consent page carrying the request's handle alone. */
async function consentHandle(opened: URL): Promise<string> {
  const res = await fetch(opened, { redirect: "manual" });
  expect(res.status).toBe(302);
  const to = new URL(res.headers.get("location")!, opened);
  expect(to.pathname).toBe("/oauth/consent");
  expect([...to.searchParams.keys()]).toEqual(["request"]);
  return to.searchParams.get("request")!;
}

type Choice = { organization_id?: string; workspace_id?: string | null };

/** The consent page's calls, as its script makes them: read the request, post the decision. */
async function decide(who: Session, handle: string, decision: "allow" | "deny", choice: Choice = {}) {
  const described = await who.call("GET", `/api/oauth/requests/${handle}`);
  expect(described.status).toBe(200);
  const res = await who.call("POST", `/api/oauth/requests/${handle}/decision`, {
    decision,
    consent: described.body.consent,
    ...choice,
  });
  return { described: described.body, res };
}

/** Finishes the SDK's flow with the code the redirect carried. */
async function finish(provider: MemoryProvider, redirectTo: string, base = stack.base) {
  const back = new URL(redirectTo);
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
  expect(back.searchParams.get("iss")).toBe(base);
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp/`), { authProvider: provider });
  await transport.finishAuth(back.searchParams.get("code")!);
}

const token = (body: Record<string, string>) =>
  fetch(`${stack.base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(body).toString(),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

/** The status of a tools/list call with this Bearer token. */
const mcpStatus = async (accessToken: string) =>
  (
    await stack.http("POST", "/mcp/", {
      headers: { authorization: `Bearer ${accessToken}`, accept: "application/json, text/event-stream" },
      body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    })
  ).status;

describe("discovery and registration", () => {
  test("a 401 from the MCP endpoint names the protected-resource metadata, which names this authorization server", async () => {
    const res = await stack.http("POST", "/mcp/", { body: { jsonrpc: "2.0", id: 1, method: "tools/list" } });
    expect(res.status).toBe(401);
    const header = res.headers.get("www-authenticate")!;
    expect(header).toBe(`Bearer resource_metadata="${stack.base}/.well-known/oauth-protected-resource/mcp/"`);
    const resource = await stack.http("GET", "/.well-known/oauth-protected-resource/mcp/");
    expect(resource.body).toMatchObject({ resource: `${stack.base}/mcp/`, authorization_servers: [stack.base] });
    const server = await stack.http("GET", "/.well-known/oauth-authorization-server");
    expect(server.body).toMatchObject({
      issuer: stack.base,
      code_challenge_methods_supported: ["S256"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      registration_endpoint: `${stack.base}/oauth/register`,
    });
  });

  test("registration refuses bad metadata with 400 naming the field", async () => {
    const register = (body: unknown) => stack.http("POST", "/oauth/register", { body });
    const plain = await register({ redirect_uris: ["http://evil.example/cb"] });
    expect(plain.status).toBe(400);
    expect(plain.body).toMatchObject({ error: "invalid_redirect_uri" });
    expect(plain.body.error_description).toMatch(/^redirect_uris\[0\]: .*neither https nor http on localhost/);
    const many = await register({ redirect_uris: Array.from({ length: 11 }, (_, i) => `https://c.example/${i}`) });
    expect(many.status).toBe(400);
    expect(many.body.error_description).toBe("redirect_uris: at most 10 URIs (got 11)");
    const long = await register({ redirect_uris: ["https://c.example/ok", `https://c.example/${"a".repeat(2000)}`] });
    expect(long.status).toBe(400);
    expect(long.body.error_description).toBe("redirect_uris[1]: longer than 2000 characters");
    const name = await register({ redirect_uris: [REDIRECT], client_name: "n".repeat(201) });
    expect(name.status).toBe(400);
    expect(name.body).toMatchObject({
      error: "invalid_client_metadata",
      error_description: "client_name: at most 200 characters",
    });
    const grants = await register({ redirect_uris: [REDIRECT], grant_types: ["client_credentials"] });
    expect(grants.body.error_description).toBe("grant_types: only authorization_code and refresh_token");
    const none = await register({ client_name: "no URIs" });
    expect(none.body.error_description).toBe("redirect_uris: give at least one redirect URI");
  });

  test("an authorization request for an unknown client is shown to the user, never redirected", async () => {
    const res = await fetch(`${stack.base}/oauth/authorize?response_type=code&client_id=mcp_nobody`, {
      redirect: "manual",
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(await res.text()).toContain("This client is not registered with the service.");
  });
});

describe("the SDK client's OAuth dance", () => {
  test("register, consent to one workspace, token, tools; the grant is listed once and revocable", async () => {
    const provider = await started("Claude <Desktop> & Co");
    const opened = provider.opened!;
    expect(opened.searchParams.get("code_challenge_method")).toBe("S256");
    const archi = await stack.signIn("archi");
    const handle = await consentHandle(opened);
    const { described, res } = await decide(archi, handle, "allow", {
      organization_id: organizationId,
      workspace_id: workspaceId,
    });
    // What the page shows: the client's name as registered, where the answer goes, the user's organizations with
    // their role and the workspaces they see.
    expect(described).toMatchObject({
      client_name: "Claude <Desktop> & Co",
      redirect_host: "127.0.0.1:9",
      redirect_uri: REDIRECT,
      username: "archi",
      can_grant: true,
      token_name: "MCP: Claude <Desktop> & Co",
    });
    const org = described.organizations.find((o: { id: string }) => o.id === organizationId);
    expect(org).toMatchObject({ role: "owner", can_change_models: true });
    expect(org.workspaces.map((w: { name: string }) => w.name)).toEqual(expect.arrayContaining(["Granted", "Other"]));
    expect(res.status).toBe(200);
    const back = new URL(res.body.redirect_to);
    expect(back.searchParams.get("state")).toBe(opened.searchParams.get("state"));
    await finish(provider, res.body.redirect_to);
    expect(provider.saved).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    expect(provider.saved?.refresh_token).toMatch(/^ams_ort_/);

    const { client } = await connect(provider);
    const info = (await client.callTool({ name: "get_model_info", arguments: {} })).structuredContent as any;
    expect(info.workspace.id).toBe(workspaceId);
    // Pinned to the chosen workspace: the other one is out of reach.
    const { workspaces } = (await client.callTool({ name: "list_workspaces", arguments: {} })).structuredContent as any;
    expect(workspaces.map((w: { id: string }) => w.id)).toEqual([workspaceId]);

    // The grant is an API token of the user, on the tokens page, and revoking it ends the client's access and its
    // refresh token.
    const list = await archi.call("GET", "/api/settings/api-tokens");
    const grants = list.body.filter((t: { name: string }) => t.name === "MCP: Claude <Desktop> & Co");
    expect(grants).toHaveLength(1);
    expect(grants[0]).toMatchObject({
      workspace_id: workspaceId,
      organization_id: organizationId,
      oauth_grant: { client_name: "Claude <Desktop> & Co" },
    });
    expect(Date.parse(grants[0].oauth_grant.renewable_until)).toBeGreaterThan(Date.now() + 59 * 86_400_000);
    // A token made on the tokens page is not an OAuth grant, whatever its name.
    const plain = await archi.call("POST", "/api/settings/api-tokens", {
      name: "MCP: Claude <Desktop> & Co",
      organization_id: organizationId,
    });
    expect(plain.status).toBe(201);
    expect(plain.body.oauth_grant).toBeNull();
    const relisted = await archi.call("GET", "/api/settings/api-tokens");
    expect(relisted.body.find((t: { id: string }) => t.id === plain.body.id).oauth_grant).toBeNull();
    expect((await archi.call("DELETE", `/api/settings/api-tokens/${plain.body.id}`)).status).toBe(204);
    expect((await archi.call("DELETE", `/api/settings/api-tokens/${grants[0].id}`)).status).toBe(204);
    expect(await mcpStatus(provider.saved!.access_token)).toBe(401);
    const refresh = await token({
      grant_type: "refresh_token",
      client_id: provider.client!.client_id,
      refresh_token: provider.saved!.refresh_token!,
    });
    expect(refresh).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect(refresh.body.error_description).toContain("revoked");
    await client.close();
  });

  test("deny sends error=access_denied and the state to the client; a request is answered once", async () => {
    const provider = await started("Denied");
    const archi = await stack.signIn("archi");
    const handle = await consentHandle(provider.opened!);
    const { described, res } = await decide(archi, handle, "deny");
    expect(res.status).toBe(200);
    const back = new URL(res.body.redirect_to);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("state")).toBe(provider.opened!.searchParams.get("state"));
    expect(back.searchParams.get("code")).toBeNull();
    const again = await archi.call("POST", `/api/oauth/requests/${handle}/decision`, {
      decision: "allow",
      consent: described.consent,
      organization_id: organizationId,
    });
    expect(again.status).toBe(410);
    expect((await archi.call("GET", `/api/oauth/requests/${handle}`)).status).toBe(410);
  });

  test("the decision trusts only the server's request: its owner, its anti-forgery value, the user's own choices", async () => {
    const provider = await started("Probed");
    const handle = await consentHandle(provider.opened!);
    // Signed out: nothing; an API token cannot grant another.
    expect((await stack.http("GET", `/api/oauth/requests/${handle}`)).status).toBe(401);
    const archi = await stack.signIn("archi");
    const pat = await stack.apiToken(archi);
    expect((await stack.rest(pat.token, "GET", `/api/oauth/requests/${handle}`)).status).toBe(403);
    // The first signed-in user to open the request owns it; to anyone else it does not exist.
    const described = await archi.call("GET", `/api/oauth/requests/${handle}`);
    expect(described.status).toBe(200);
    const open = await stack.signIn("open");
    expect((await open.call("GET", `/api/oauth/requests/${handle}`)).status).toBe(404);
    expect(
      (
        await open.call("POST", `/api/oauth/requests/${handle}/decision`, {
          decision: "allow",
          consent: described.body.consent,
          organization_id: open.organizationId,
        })
      ).status,
    ).toBe(403);
    // A decision without the value the page read (a cross-site form) is refused.
    const forged = await archi.call("POST", `/api/oauth/requests/${handle}/decision`, {
      decision: "allow",
      consent: "forged",
      organization_id: organizationId,
    });
    expect(forged.status).toBe(403);
    // Another user's organization, another organization's workspace: refused, naming the field; the request stays.
    const allow = (choice: Choice) =>
      archi.call("POST", `/api/oauth/requests/${handle}/decision`, {
        decision: "allow",
        consent: described.body.consent,
        ...choice,
      });
    const notMine = await allow({ organization_id: open.organizationId });
    expect(notMine.status).toBe(422);
    expect(JSON.stringify(notMine.body)).toContain("organization_id");
    const openWorkspace = (await open.call("POST", "/api/workspaces", { name: "Open's" })).body.id as string;
    const elsewhere = await allow({ organization_id: organizationId, workspace_id: openWorkspace });
    expect(elsewhere.status).toBe(422);
    expect(JSON.stringify(elsewhere.body)).toContain("workspace_id");
    // The redirect URI and the PKCE challenge are the stored ones whatever the body says.
    const sneaky = await archi.call("POST", `/api/oauth/requests/${handle}/decision`, {
      decision: "allow",
      consent: described.body.consent,
      organization_id: organizationId,
      redirect_uri: "https://evil.example/cb",
      code_challenge: "A".repeat(43),
    });
    expect(sneaky.status).toBe(200);
    expect(new URL(sneaky.body.redirect_to).origin).toBe("http://127.0.0.1:9");
    await finish(provider, sneaky.body.redirect_to);
    expect(provider.saved?.access_token).toMatch(/^ams_pat_/);
  });

  test("an Admin account may only deny; a request left too long is over (410)", async () => {
    const login = await fetch(`${stack.base}/api/auth/local/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "admin", password: "admin-dev-password" }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const admin = (method: string, path: string, body?: unknown) =>
      stack.http(method, path, { body, headers: { cookie, origin: stack.base } });
    const provider = await started("Admin's client");
    const handle = await consentHandle(provider.opened!);
    const described = await admin("GET", `/api/oauth/requests/${handle}`);
    expect(described.body).toMatchObject({ can_grant: false, organizations: [] });
    const archi = await stack.signIn("archi");
    const allow = await admin("POST", `/api/oauth/requests/${handle}/decision`, {
      decision: "allow",
      consent: described.body.consent,
      organization_id: archi.organizationId,
    });
    expect(allow.status).toBe(403);
    expect(allow.body.detail).toContain("Admin");
    const deny = await admin("POST", `/api/oauth/requests/${handle}/decision`, {
      decision: "deny",
      consent: described.body.consent,
    });
    expect(new URL(deny.body.redirect_to).searchParams.get("error")).toBe("access_denied");

    const late = await consentHandle((await started("Slow user's client")).opened!);
    await stack.database.rows(
      sql`update oauth_requests set expires_at = now() - interval '1 second' where client_id = (
            select client_id from oauth_clients where client_name = 'Slow user''s client')`,
    );
    const expired = await archi.call("GET", `/api/oauth/requests/${late}`);
    expect(expired.status).toBe(410);
    expect(expired.body.detail).toContain("expired");
  });

  test("a code works once, only with its PKCE verifier", async () => {
    const provider = await started("Second");
    const user = await stack.signIn("user");
    const handle = await consentHandle(provider.opened!);
    const { res } = await decide(user, handle, "allow", { organization_id: user.organizationId });
    const code = new URL(res.body.redirect_to).searchParams.get("code")!;
    const exchange = (verifier: string) =>
      token({
        grant_type: "authorization_code",
        client_id: provider.client!.client_id,
        redirect_uri: REDIRECT,
        code,
        code_verifier: verifier,
      });
    expect(await exchange("x".repeat(43))).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    // The failed attempt used the code up: the right verifier is too late now.
    expect((await exchange(provider.verifier)).body.error).toBe("invalid_grant");
  });

  test("a viewer's grant lists only the read tools", async () => {
    const provider = await started("Viewer's client");
    const user = await stack.signIn("user");
    const handle = await consentHandle(provider.opened!);
    const { described, res } = await decide(user, handle, "allow", { organization_id: user.organizationId });
    expect(described.organizations[0]).toMatchObject({ role: "viewer", can_change_models: false });
    await finish(provider, res.body.redirect_to);
    const { client } = await connect(provider);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("get_model_info");
    expect(names).not.toContain("create_element");
    expect(textOf(await client.callTool({ name: "list_workspaces", arguments: {} }))).toContain("workspaces");
    await client.close();
  });
});

describe("refresh tokens", () => {
  async function granted(name: string) {
    const provider = await started(name);
    const archi = await stack.signIn("archi");
    const handle = await consentHandle(provider.opened!);
    const { res } = await decide(archi, handle, "allow", { organization_id: organizationId });
    await finish(provider, res.body.redirect_to);
    return { provider, archi };
  }

  test("an expired access token is renewed by the SDK client itself, without the browser", async () => {
    const { provider, archi } = await granted("Renewing client");
    const first = provider.saved!;
    await stack.database.rows(
      sql`update api_tokens set expires_at = now() - interval '1 second' where name = 'MCP: Renewing client'`,
    );
    expect(await mcpStatus(first.access_token)).toBe(401);
    // Its hour over, the grant is still a connected assistant: the access token lapsed, the grant did not.
    const lapsed = (await archi.call("GET", "/api/settings/api-tokens")).body.find(
      (t: { name: string }) => t.name === "MCP: Renewing client",
    );
    expect(lapsed).toMatchObject({ expired: true, oauth_grant: { client_name: "Renewing client" } });
    expect(lapsed.oauth_grant.renewable_until).not.toBeNull();
    provider.opened = undefined;
    const { client } = await connect(provider);
    expect((await client.listTools()).tools.length).toBeGreaterThan(37);
    expect(provider.saved!.access_token).not.toBe(first.access_token);
    expect(provider.saved!.refresh_token).not.toBe(first.refresh_token);
    // No new authorization was started: the user's browser was not needed.
    expect(provider.opened).toBeUndefined();
    // Still one grant on the tokens page, now valid for another hour.
    const list = await archi.call("GET", "/api/settings/api-tokens");
    const rows = list.body.filter((t: { name: string }) => t.name === "MCP: Renewing client");
    expect(rows).toHaveLength(1);
    expect(rows[0].expired).toBe(false);
    // The renewal is when the grant was last renewed.
    expect(Date.parse(rows[0].oauth_grant.renewed_at)).toBeGreaterThan(Date.parse(lapsed.oauth_grant.renewed_at));
    await client.close();
  });

  test("a grant whose refresh token lapsed (60 days unused) can no longer renew itself, and says so", async () => {
    const { archi } = await granted("Forgotten client");
    await stack.database.rows(
      sql`update oauth_refresh_tokens set expires_at = now() - interval '1 second'
          where api_token_id = (select id from api_tokens where name = 'MCP: Forgotten client')`,
    );
    const listed = (await archi.call("GET", "/api/settings/api-tokens")).body.find(
      (t: { name: string }) => t.name === "MCP: Forgotten client",
    );
    expect(listed.oauth_grant).toMatchObject({ client_name: "Forgotten client", renewable_until: null });
  });

  test("rotation: each refresh token works once; presenting a used one revokes the whole grant", async () => {
    const { provider, archi } = await granted("Rotating client");
    const clientId = provider.client!.client_id;
    const first = provider.saved!;
    const second = await token({
      grant_type: "refresh_token",
      client_id: clientId,
      refresh_token: first.refresh_token!,
    });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "mcp" });
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    // The new access token works, the previous one ended with the rotation.
    expect(await mcpStatus(second.body.access_token)).toBe(200);
    expect(await mcpStatus(first.access_token)).toBe(401);
    // Another client cannot use it.
    const stranger = await token({
      grant_type: "refresh_token",
      client_id: "mcp_someone_else",
      refresh_token: second.body.refresh_token,
    });
    expect(stranger).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    // The first refresh token again (stolen, or replayed): refused, and the grant is revoked with everything in it.
    const replay = await token({
      grant_type: "refresh_token",
      client_id: clientId,
      refresh_token: first.refresh_token!,
    });
    expect(replay).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect(replay.body.error_description).toContain("already used");
    expect(await mcpStatus(second.body.access_token)).toBe(401);
    const after = await token({
      grant_type: "refresh_token",
      client_id: clientId,
      refresh_token: second.body.refresh_token,
    });
    expect(after.body.error).toBe("invalid_grant");
    const list = await archi.call("GET", "/api/settings/api-tokens");
    expect(list.body.some((t: { name: string }) => t.name === "MCP: Rotating client")).toBe(false);
  });

  test("a used refresh token is remembered a week for reuse detection, then forgotten (not kept for ever)", async () => {
    const { provider } = await granted("Long-lived client");
    const clientId = provider.client!.client_id;
    const refresh = (refreshToken: string) =>
      token({ grant_type: "refresh_token", client_id: clientId, refresh_token: refreshToken });
    const first = provider.saved!.refresh_token!;
    const second = (await refresh(first)).body.refresh_token as string;
    await stack.database.rows(
      sql`update oauth_refresh_tokens set used_at = now() - interval '8 days' where used_at is not null
          and api_token_id = (select id from api_tokens where name = 'MCP: Long-lived client')`,
    );
    const third = await refresh(second);
    expect(third.status).toBe(200);
    const kept = await stack.database.rows<{ used: boolean }>(
      sql`select used_at is not null as used from oauth_refresh_tokens
          where api_token_id = (select id from api_tokens where name = 'MCP: Long-lived client') order by created_at`,
    );
    // The week-old used token is gone; the one just used and the new one remain.
    expect(kept.map((r) => r.used)).toEqual([true, false]);
    // Presented now, the forgotten one is merely unknown: the grant lives on.
    expect((await refresh(first)).body.error_description).toBe("the refresh token is unknown or expired");
    expect(await mcpStatus(third.body.access_token)).toBe(200);
  });

  test("refresh tokens are stored as SHA-256 only", async () => {
    const { provider } = await granted("Hashed client");
    const rows = await stack.database.rows<{ token_hash: string }>(sql`select token_hash from oauth_refresh_tokens`);
    expect(rows.some((r) => r.token_hash === provider.saved!.refresh_token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
  });
});

describe("in Chromium: the browser UI's consent page", () => {
  test("sign in, choose organization and workspace, Allow; the SDK client gets its token; Deny tells the client", async () => {
    const allowed = await started("Chromium client");
    const denied = await started("Chromium denied client");
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      // The client's redirect URI: a local listener in a real host; here the browser's request to it is caught.
      const callbacks: string[] = [];
      await page.route(`${REDIRECT}**`, (route) => {
        callbacks.push(route.request().url());
        return route.fulfill({ status: 200, contentType: "text/html", body: "<p>You can close this window.</p>" });
      });
      // Signed out: the consent page sends the user to sign in, and back with the request.
      await page.goto(allowed.opened!.toString());
      await page.waitForURL((url) => url.pathname === "/login");
      expect(new URL(page.url()).searchParams.get("from")).toMatch(/^\/oauth\/consent\?request=/);
      await page.getByLabel("Username").fill("archi");
      await page.getByLabel("Password").fill("archi-dev-password");
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.waitForURL((url) => url.pathname === "/oauth/consent");
      await page.getByLabel("Organization").waitFor();
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Connect an MCP client");
      const card = page.locator(".auth-card");
      await expect.poll(() => card.textContent()).toContain("Chromium client");
      expect(await card.textContent()).toContain("signed in as archi");
      expect(await card.textContent()).toContain("127.0.0.1:9");
      await page.getByLabel("Organization").selectOption(organizationId);
      await page.getByLabel("Workspace").selectOption(workspaceId);
      const access = await page.locator("#consent-access").textContent();
      expect(access).toContain("owner");
      expect(access).toContain("read and change models, in the workspace Granted only");
      expect(access).toContain("checked again on every request");
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, "mcp-oauth-consent");
      await page.getByRole("button", { name: "Allow" }).click();
      await page.waitForURL(`${REDIRECT}**`);
      const code = new URL(callbacks.at(-1)!).searchParams.get("code")!;
      expect(code).toBeTruthy();
      await new StreamableHTTPClientTransport(new URL(`${stack.base}/mcp/`), { authProvider: allowed }).finishAuth(
        code,
      );

      // The tokens page: the grant is a connected assistant that renews itself, also once its hour is over.
      await stack.database.rows(
        sql`update api_tokens set expires_at = now() - interval '1 second' where name = 'MCP: Chromium client'`,
      );
      await page.goto(`${stack.base}/settings`);
      const row = page.getByRole("table", { name: "API tokens" }).getByRole("row", { name: /MCP: Chromium client/ });
      await row.waitFor();
      const expires = row.locator('td[data-column="expires"]');
      expect(await expires.textContent()).toMatch(
        /^Connected assistant — renews itselfLast renewed .+; renews until .+ if unused$/,
      );
      expect(await expires.textContent()).not.toContain("expired");
      // The sessions list belongs to the session profile; this server runs the local one.
      expect(await page.getByRole("heading", { name: "Sessions" }).count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, "mcp-oauth-grant-on-tokens-page");
      await row.getByRole("button", { name: "Revoke MCP: Chromium client" }).click();
      await page
        .getByRole("dialog", { name: "Revoke API token" })
        .getByText("The assistant 'Chromium client' loses access at once and cannot renew it")
        .waitFor();
      await page.getByRole("dialog", { name: "Revoke API token" }).getByRole("button", { name: "Cancel" }).click();

      // Signed in already: straight to the consent page; Deny.
      await page.goto(denied.opened!.toString());
      await page.getByRole("button", { name: "Deny" }).click();
      await page.waitForURL(`${REDIRECT}**`);
      const back = new URL(callbacks.at(-1)!);
      expect(back.searchParams.get("error")).toBe("access_denied");
      expect(back.searchParams.get("state")).toBe(denied.opened!.searchParams.get("state"));
    } finally {
      await browser.close();
    }
    const { client } = await connect(allowed);
    const info = (await client.callTool({ name: "get_model_info", arguments: {} })).structuredContent as any;
    expect(info.workspace.id).toBe(workspaceId);
    expect((await client.listTools()).tools.length).toBeGreaterThan(37);
    await client.close();
  }, 180_000);
});

describe("in the session profile (AUTH_MODE=session)", () => {
  let session: Stack;
  beforeAll(async () => {
    session = await startStack({ env: { AUTH_MODE: "session" } });
  }, 120_000);
  afterAll(() => session?.close());

  test("signed in through better-auth, the consent page's calls grant the same way", async () => {
    const provider = await started("Session-profile client", session.base);
    const origin = session.base;
    const signIn = await fetch(`${origin}/auth/sign-in/username`, {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: JSON.stringify({ username: "archi", password: "archi-dev-password" }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const call = (method: string, path: string, body?: unknown) =>
      session.http(method, path, { body, headers: { cookie, origin } });
    const handle = await consentHandle(provider.opened!);
    const described = await call("GET", `/api/oauth/requests/${handle}`);
    expect(described.status).toBe(200);
    expect(described.body.username).toBe("archi");
    const org = described.body.organizations[0];
    const decided = await call("POST", `/api/oauth/requests/${handle}/decision`, {
      decision: "allow",
      consent: described.body.consent,
      organization_id: org.id,
    });
    expect(decided.status).toBe(200);
    await finish(provider, decided.body.redirect_to, session.base);
    const { client } = await connect(provider, session.base);
    expect((await client.listTools()).tools.length).toBeGreaterThan(37);
    await client.close();
  });
});

describe("registration limits (behind one trusted proxy, addresses from X-Forwarded-For)", () => {
  let limited: Stack;
  beforeAll(async () => {
    limited = await startStack({ env: { TRUST_PROXY_HOPS: "1" } });
  }, 120_000);
  afterAll(() => limited?.close());

  const register = (ip: string) =>
    limited.http("POST", "/oauth/register", {
      headers: { "x-forwarded-for": ip },
      body: { client_name: "Burst", redirect_uris: [REDIRECT] },
    });

  test("20 registrations an hour per address, then 429 with Retry-After; another address is not affected", async () => {
    for (let i = 0; i < 20; i++) expect((await register("203.0.113.7")).status).toBe(201);
    const refused = await register("203.0.113.7");
    expect(refused.status).toBe(429);
    const retry = Number(refused.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(3500);
    expect(retry).toBeLessThanOrEqual(3600);
    expect((await register("198.51.100.2")).status).toBe(201);
    // Refused metadata stores nothing and is not counted, but is refused first.
    const bad = await limited.http("POST", "/oauth/register", {
      headers: { "x-forwarded-for": "203.0.113.7" },
      body: { redirect_uris: ["ftp://x"] },
    });
    expect(bad.status).toBe(400);
  });

  test("a registration that obtained no token within a day is deleted; a used one stays", async () => {
    const old = new Date(Date.now() - 25 * 3600_000);
    const { db } = limited.database;
    await db.insert(oauthClients).values([
      { clientId: "mcp_stale_unused", clientName: "Stale", redirectUris: [REDIRECT], createdAt: old },
      { clientId: "mcp_stale_used", clientName: "Used", redirectUris: [REDIRECT], createdAt: old, usedAt: old },
    ]);
    expect((await register("192.0.2.1")).status).toBe(201);
    const left = await limited.database.rows<{ client_id: string }>(
      sql`select client_id from oauth_clients where client_id like 'mcp_stale_%'`,
    );
    expect(left.map((c) => c.client_id)).toEqual(["mcp_stale_used"]);
  });
});
