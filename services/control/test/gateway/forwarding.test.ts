import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Credentials, createHarness, type Harness, type TestUser } from "../support/harness.ts";

/**
 * What the gateway forwards, observed through a recording upstream (a stand-in used only to see the request and
 * the verified claims; access decisions are tested against the real tenant in authorization-table.test.ts).
 */
let h: Harness;
let owner: TestUser;
let ownerSession: Credentials;
let org: { id: string };
let ws: { id: string };
let ws2: { id: string };

beforeAll(async () => {
  h = await createHarness();
  owner = await h.user("olga");
  org = await h.org("Acme", [[owner, "owner"]]);
  ws = await h.workspace(org.id, "First");
  ws2 = await h.workspace(org.id, "Second");
  await h.select(owner.id, org.id, ws2.id);
  ownerSession = await h.session(owner);
});
afterAll(() => h.close());

describe("forwarding to tenant", () => {
  test("keeps method, path, query, body and content type; signs claims of the active workspace", async () => {
    const res = await h.call("PUT", "/api/elements/id-1?x=1&y=two", {
      as: ownerSession,
      body: { name: "CRM" },
      headers: { accept: "application/json", "x-request-id": "req-1" },
    });
    expect(res.status).toBe(200);
    const call = h.recorder.last();
    expect(call.method).toBe("PUT");
    expect(call.url.pathname).toBe("/api/elements/id-1");
    expect(call.url.search).toBe("?x=1&y=two");
    expect(JSON.parse(call.body)).toEqual({ name: "CRM" });
    expect(call.headers.get("content-type")).toBe("application/json");
    expect(call.headers.get("x-request-id")).toBe("req-1");
    expect(call.claims).toEqual({
      userId: owner.id,
      username: "olga",
      organizationId: org.id,
      workspaceId: ws2.id,
      role: "owner",
      platformAdmin: false,
      apiTokenId: null,
      pinnedWorkspaceId: null,
      // Every forwarded request carries the caller's teams in the organization (none here).
      teamIds: [],
      // And who and how, for the change log: a signed-in browser session.
      displayName: "olga",
      via: { kind: "browser", name: null },
    });
  });

  test("a request with a personal API token is signed as coming through that token, by name", async () => {
    const created = await h.call("POST", "/api/settings/api-tokens", {
      as: ownerSession,
      body: { organization_id: org.id, name: "Nightly sync" },
    });
    const { token } = await created.json();
    const res = await h.call("GET", "/api/elements", { as: { bearer: token } });
    expect(res.status).toBe(200);
    expect(h.recorder.last().claims).toMatchObject({ via: { kind: "api_token", name: "Nightly sync" } });
  });

  test("a request without an id gets one: the upstream sees the id the caller is answered with", async () => {
    const res = await h.call("GET", "/api/elements", { as: ownerSession });
    expect(res.status).toBe(200);
    const id = res.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(h.recorder.last().headers.get("x-request-id")).toBe(id);
  });

  test("never forwards cookies or authorization, and replaces a client-sent service token", async () => {
    const forged = await h.tokens.sign(
      {
        userId: "evil",
        username: "evil",
        organizationId: org.id,
        workspaceId: ws.id,
        role: "owner",
        platformAdmin: true,
        apiTokenId: null,
      },
      "tenant",
    );
    await h.call("GET", "/api/elements", { as: ownerSession, headers: { "x-ams-service-token": forged } });
    const call = h.recorder.last();
    expect(call.headers.get("cookie")).toBeNull();
    expect(call.headers.get("authorization")).toBeNull();
    expect(call.claims?.userId).toBe(owner.id);

    const anonymous = await h.call("GET", "/api/elements", { headers: { "x-ams-service-token": forged } });
    expect(anonymous.status).toBe(401);
  });

  test("drops Set-Cookie from upstream responses", async () => {
    const res = await h.call("GET", "/api/elements", { as: ownerSession });
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  test("POST /api/workspaces peeks at organization_id and forwards the body byte for byte", async () => {
    const other = await h.org("Other", [[owner, "editor"]]);
    const raw = `{"name":"New",  "organization_id":"${other.id}" }`;
    await h.call("POST", "/api/workspaces", {
      as: ownerSession,
      raw,
      headers: { "content-type": "application/json" },
    });
    const call = h.recorder.last();
    expect(call.body).toBe(raw);
    expect(call.claims).toMatchObject({ organizationId: other.id, role: "editor", workspaceId: null });

    await h.call("POST", "/api/workspaces", { as: ownerSession, body: { name: "Here" } });
    expect(h.recorder.last().claims).toMatchObject({ organizationId: org.id, role: "owner", workspaceId: ws2.id });
  });

  test("POST /api/workspaces reads organization_id from a multipart form too", async () => {
    const stranger = await h.org("Stranger");
    const form = new FormData();
    form.set("name", "Uploaded");
    form.set("organization_id", stranger.id);
    const req = new Request("http://x/", { method: "POST", body: form });
    const res = await h.call("POST", "/api/workspaces", {
      as: ownerSession,
      raw: await req.arrayBuffer(),
      headers: { "content-type": req.headers.get("content-type")! },
    });
    expect(res.status).toBe(404);
  });

  test("/api/workspaces/:id resolves the workspace's organization; activation of another org's workspace", async () => {
    const other = await h.org("Third", [[owner, "viewer"]]);
    const otherWs = await h.workspace(other.id);
    await h.call("POST", `/api/workspaces/${otherWs.id}/activate`, { as: ownerSession });
    expect(h.recorder.last().claims).toMatchObject({
      organizationId: other.id,
      workspaceId: otherWs.id,
      role: "viewer",
    });
  });

  test("the public icon route is forwarded without a service token", async () => {
    const res = await h.call("GET", "/api/plugins/pack/icons/cloud");
    expect(res.status).toBe(200);
    const call = h.recorder.last();
    expect(call.url.pathname).toBe("/api/plugins/pack/icons/cloud");
    expect(call.claims).toBeNull();
  });

  test("unknown routes: 401 without credentials, 404 with", async () => {
    expect((await h.call("GET", "/api/nope")).status).toBe(401);
    expect((await h.call("GET", "/api/nope", { as: ownerSession })).status).toBe(404);
    expect((await h.call("PATCH", "/api/elements/x", { as: ownerSession })).status).toBe(404);
  });

  test("401 carries WWW-Authenticate: Bearer and a problem body", async () => {
    const res = await h.call("GET", "/api/elements");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe("Bearer");
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.json()).toMatchObject({ status: 401, code: "UNAUTHENTICATED" });
  });

  test("a malformed Authorization header is not silently replaced by the cookie", async () => {
    const res = await h.call("GET", "/api/elements", {
      as: ownerSession,
      headers: { authorization: "Basic Zm9vOmJhcg==" },
    });
    expect(res.status).toBe(401);
  });
});

describe("MCP", () => {
  test("/mcp and /mcp/ go to /api/mcp with a token's claims (audience mcp)", async () => {
    const created = await h.call("POST", "/api/settings/api-tokens", {
      as: ownerSession,
      body: { organization_id: org.id, workspace_id: ws.id },
    });
    const { token, id, name } = await created.json();
    const mcp = h.mcp as unknown as { last(): { url: URL; claims: unknown; body: string } };
    for (const path of ["/mcp", "/mcp/"]) {
      const res = await h.call("POST", path, {
        as: { bearer: token },
        body: { jsonrpc: "2.0", id: 1, method: "ping" },
      });
      expect(res.status).toBe(200);
      expect(mcp.last().url.pathname).toBe("/api/mcp");
      expect(mcp.last().claims).toMatchObject({
        organizationId: org.id,
        workspaceId: ws.id,
        role: "owner",
        apiTokenId: id,
        // The change log's way in: the MCP endpoint, named after the token (an OAuth grant: the client's name).
        via: { kind: "mcp", name },
      });
    }
  });

  test("anything but a personal API token gets 401 with WWW-Authenticate: Bearer naming the OAuth metadata", async () => {
    for (const as of [null, ownerSession, { bearer: "ams_pat_0000000000000000000000000000000000000000" }]) {
      const res = await h.call("POST", "/mcp/", { as, body: {} });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(
        /^Bearer resource_metadata="https?:\/\/[^"]+\/\.well-known\/oauth-protected-resource\/mcp\/"$/,
      );
    }
  });
});

describe("body peek limit", () => {
  test("a body the gateway must read is capped (413) before anything is buffered past the limit", async () => {
    const res = await h.call("POST", "/api/workspaces", {
      as: ownerSession,
      raw: "x",
      headers: { "content-type": "application/json", "content-length": String(60 * 1024 * 1024) },
    });
    expect(res.status).toBe(413);
    expect((await res.json()).code).toBe("PAYLOAD_TOO_LARGE");
  });
});
