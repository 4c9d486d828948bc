import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Stack, startStack, textOf } from "./support/stack.ts";

/**
 * An MCP client without a hand-made token, as the MCP authorization specification has it: the official SDK client
 * discovers the OAuth endpoints from the 401, registers itself, sends the user to the consent page, exchanges the
 * code (PKCE) and calls tools with the token. The user's browser is Debian's Chromium in one test (the pages as a
 * person uses them) and plain HTTP requests carrying the session cookie in the others (forms and redirects exactly as
 * a browser submits them, to probe what a page would not let a person do).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/lib/chromium/chromium";
let stack: Stack;
let workspaceId: string;
let organizationId: string;

beforeAll(async () => {
  stack = await startStack();
  const archi = await stack.signIn("archi");
  organizationId = archi.organizationId;
  workspaceId = (await archi.call("POST", "/api/workspaces", { name: "Granted" })).body.id;
  await archi.call("POST", "/api/workspaces", { name: "Other" });
});
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

/** A browser: follows nothing by itself, keeps cookies, submits forms. */
function browser() {
  const cookies = new Map<string, string>();
  const remember = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair!.indexOf("=");
      cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
  };
  const headers = () => ({ cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") });
  return {
    async get(url: string) {
      const res = await fetch(url, { headers: headers(), redirect: "manual" });
      remember(res);
      return {
        status: res.status,
        location: res.headers.get("location"),
        html: await res.text(),
        headers: res.headers,
      };
    },
    async post(url: string, form: Record<string, string>) {
      const res = await fetch(url, {
        method: "POST",
        // Browsers send Origin with every form POST (the session profile's CSRF check reads it).
        headers: { ...headers(), "content-type": "application/x-www-form-urlencoded", origin: new URL(url).origin },
        body: new URLSearchParams(form).toString(),
        redirect: "manual",
      });
      remember(res);
      return { status: res.status, location: res.headers.get("location"), html: await res.text() };
    },
  };
}

/** The hidden fields and the option values of a server-rendered form. */
function formOf(html: string) {
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[m[1]!] = m[2]!.replaceAll("&amp;", "&").replaceAll("&quot;", '"').replaceAll("&#39;", "'");
  }
  const options = [...html.matchAll(/<option value="([^"]+)">([^<]*)<\/option>/g)].map((m) => ({
    value: m[1]!,
    label: m[2]!,
  }));
  return { fields, options };
}

async function connect(provider: MemoryProvider) {
  const client = new Client({ name: "oauth-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${stack.base}/mcp/`), { authProvider: provider });
  await client.connect(transport);
  return { client, transport };
}

describe("discovery", () => {
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
      registration_endpoint: `${stack.base}/oauth/register`,
    });
  });

  test("registration refuses redirect URIs that are neither https nor loopback http", async () => {
    const res = await stack.http("POST", "/oauth/register", { body: { redirect_uris: ["http://evil.example/cb"] } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_redirect_uri");
  });
});

describe("the SDK client's OAuth dance", () => {
  test("register, sign in, consent to one workspace, token, tools; the token is listed and revocable", async () => {
    const provider = new MemoryProvider("Claude <Desktop> & Co");
    await expect(connect(provider)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.client?.client_id).toMatch(/^mcp_/);
    const url = provider.opened!;
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");

    const user = browser();
    const signIn = await user.get(url.toString());
    expect(signIn.status).toBe(200);
    expect(signIn.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    // The client's name is text, never markup.
    expect(signIn.html).toContain("Claude &lt;Desktop&gt; &amp; Co");
    const signedIn = await user.post(`${stack.base}/oauth/sign-in`, {
      ...formOf(signIn.html).fields,
      username: "archi",
      password: "archi-dev-password",
    });
    expect(signedIn.status).toBe(303);
    const consent = await user.get(`${stack.base}${signedIn.location}`);
    expect(consent.html).toContain("Connect an MCP client");
    const { fields, options } = formOf(consent.html);
    const choice = options.find((o) => o.value === `${organizationId}/${workspaceId}`)!;
    expect(choice.label).toContain("Granted only");
    const approved = await user.post(`${stack.base}/oauth/authorize`, {
      ...fields,
      grant: choice.value,
      decision: "approve",
    });
    expect(approved.status).toBe(302);
    const back = new URL(approved.location!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get("iss")).toBe(stack.base);
    expect(back.searchParams.get("state")).toBe(url.searchParams.get("state"));

    const first = new StreamableHTTPClientTransport(new URL(`${stack.base}/mcp/`), { authProvider: provider });
    await first.finishAuth(back.searchParams.get("code")!);
    expect(provider.saved?.token_type).toBe("Bearer");
    const { client } = await connect(provider);
    const info = (await client.callTool({ name: "get_model_info", arguments: {} })).structuredContent as any;
    expect(info.workspace.id).toBe(workspaceId);
    // Pinned to the chosen workspace: the other one is out of reach.
    const { workspaces } = (await client.callTool({ name: "list_workspaces", arguments: {} })).structuredContent as any;
    expect(workspaces.map((w: { id: string }) => w.id)).toEqual([workspaceId]);

    // The grant is an API token of the user, on the tokens page, and revoking it ends the client's access.
    const archi = await stack.signIn("archi");
    const list = await archi.call("GET", "/api/settings/api-tokens");
    const grant = list.body.find((t: { name: string }) => t.name === "MCP: Claude <Desktop> & Co");
    expect(grant).toMatchObject({ workspace_id: workspaceId });
    expect(grant.expires_at).toBeTruthy();
    expect((await archi.call("DELETE", `/api/settings/api-tokens/${grant.id}`)).status).toBe(204);
    const after = await stack.http("POST", "/mcp/", {
      headers: {
        authorization: `Bearer ${provider.saved!.access_token}`,
        accept: "application/json, text/event-stream",
      },
      body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    });
    expect(after.status).toBe(401);
    await client.close();
  });

  test("a code works once, only with its PKCE verifier; deny and a forged form are refused", async () => {
    const provider = new MemoryProvider("Second");
    await expect(connect(provider)).rejects.toBeInstanceOf(UnauthorizedError);
    const user = browser();
    const signIn = await user.get(provider.opened!.toString());
    const signedIn = await user.post(`${stack.base}/oauth/sign-in`, {
      ...formOf(signIn.html).fields,
      username: "user",
      password: "user-dev-password",
    });
    const consent = await user.get(`${stack.base}${signedIn.location}`);
    const { fields, options } = formOf(consent.html);
    const forged = await user.post(`${stack.base}/oauth/authorize`, {
      ...fields,
      consent: "forged",
      grant: options[0]!.value,
      decision: "approve",
    });
    expect(forged.status).toBe(400);
    const denied = await user.post(`${stack.base}/oauth/authorize`, {
      ...fields,
      grant: options[0]!.value,
      decision: "deny",
    });
    expect(new URL(denied.location!).searchParams.get("error")).toBe("access_denied");
    const approved = await user.post(`${stack.base}/oauth/authorize`, {
      ...fields,
      grant: options[0]!.value,
      decision: "approve",
    });
    const code = new URL(approved.location!).searchParams.get("code")!;
    const token = (body: Record<string, string>) =>
      fetch(`${stack.base}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          client_id: provider.client!.client_id,
          redirect_uri: REDIRECT,
          code,
          ...body,
        }).toString(),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    const wrong = await token({ code_verifier: "x".repeat(43) });
    expect(wrong).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    // The failed attempt used the code up: the right verifier is too late now.
    const late = await token({ code_verifier: provider.verifier });
    expect(late.body.error).toBe("invalid_grant");
  });

  test("a viewer's grant lists only the read tools", async () => {
    const provider = new MemoryProvider("Viewer's client");
    await expect(connect(provider)).rejects.toBeInstanceOf(UnauthorizedError);
    const user = browser();
    const signIn = await user.get(provider.opened!.toString());
    const signedIn = await user.post(`${stack.base}/oauth/sign-in`, {
      ...formOf(signIn.html).fields,
      username: "user",
      password: "user-dev-password",
    });
    const consent = await user.get(`${stack.base}${signedIn.location}`);
    const { fields, options } = formOf(consent.html);
    const approved = await user.post(`${stack.base}/oauth/authorize`, {
      ...fields,
      grant: options[0]!.value,
      decision: "approve",
    });
    const transport = new StreamableHTTPClientTransport(new URL(`${stack.base}/mcp/`), { authProvider: provider });
    await transport.finishAuth(new URL(approved.location!).searchParams.get("code")!);
    const { client } = await connect(provider);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("get_model_info");
    expect(names).not.toContain("create_element");
    expect(textOf(await client.callTool({ name: "list_workspaces", arguments: {} }))).toContain("workspaces");
    await client.close();
  });

  test("in Chromium: sign in, choose the workspace, allow; the client gets its token and calls tools", async () => {
    const provider = new MemoryProvider("Chromium client");
    await expect(connect(provider)).rejects.toBeInstanceOf(UnauthorizedError);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-dev-shm-usage",
      ],
    });
    try {
      const page = await browser.newPage();
      // The client's redirect URI: a local listener in a real host; here the browser's request to it is caught.
      let callback = "";
      await page.route(`${REDIRECT}**`, (route) => {
        callback = route.request().url();
        return route.fulfill({ status: 200, contentType: "text/html", body: "<p>You can close this window.</p>" });
      });
      await page.goto(provider.opened!.toString());
      await page.fill("#username", "archi");
      await page.fill("#password", "archi-dev-password");
      await page.click("button[type=submit]");
      await page.waitForSelector("#grant");
      expect(await page.textContent("h1")).toBe("Connect an MCP client");
      expect(await page.textContent("body")).toContain("as archi");
      await page.selectOption("#grant", `${organizationId}/${workspaceId}`);
      await page.click("button[value=approve]");
      await page.waitForURL(`${REDIRECT}**`);
      const code = new URL(callback).searchParams.get("code")!;
      const transport = new StreamableHTTPClientTransport(new URL(`${stack.base}/mcp/`), { authProvider: provider });
      await transport.finishAuth(code);
    } finally {
      await browser.close();
    }
    const { client } = await connect(provider);
    const info = (await client.callTool({ name: "get_model_info", arguments: {} })).structuredContent as any;
    expect(info.workspace.id).toBe(workspaceId);
    await client.close();
  }, 60_000);
});

describe("in the session profile (AUTH_MODE=session)", () => {
  let session: Stack;
  beforeAll(async () => {
    session = await startStack({ env: { AUTH_MODE: "session" } });
  });
  afterAll(() => session?.close());

  test("the consent page signs in through better-auth and the grant works the same", async () => {
    const provider = new MemoryProvider("Session-profile client");
    const client = new Client({ name: "oauth-test", version: "1.0.0" });
    const url = new URL(`${session.base}/mcp/`);
    await expect(
      client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider })),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    const user = browser();
    const signIn = await user.get(provider.opened!.toString());
    const wrong = await user.post(`${session.base}/oauth/sign-in`, {
      ...formOf(signIn.html).fields,
      username: "archi",
      password: "not-the-password",
    });
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain("Invalid username or password.");
    const signedIn = await user.post(`${session.base}/oauth/sign-in`, {
      ...formOf(signIn.html).fields,
      username: "archi",
      password: "archi-dev-password",
    });
    expect(signedIn.status).toBe(303);
    const consent = await user.get(`${session.base}${signedIn.location}`);
    expect(consent.html).toContain("as <strong>archi</strong>");
    const { fields, options } = formOf(consent.html);
    const approved = await user.post(`${session.base}/oauth/authorize`, {
      ...fields,
      grant: options[0]!.value,
      decision: "approve",
    });
    await new StreamableHTTPClientTransport(url, { authProvider: provider }).finishAuth(
      new URL(approved.location!).searchParams.get("code")!,
    );
    const connected = new Client({ name: "oauth-test", version: "1.0.0" });
    await connected.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    expect((await connected.listTools()).tools.length).toBeGreaterThan(37);
    await connected.close();
  });
});
