import { createMcpApp } from "@ams/mcp";
import { silentLogger } from "@ams/shared";
import { createTenantApp } from "@ams/tenant";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Credentials, cookiesOf, createHarness, type Harness, type TestUser } from "../support/harness.ts";

/**
 * Teams in the session profile, through the real gateway into the real tenant and MCP apps: a workspace assigned
 * to a team is invisible to a member outside it (REST list, by id, export, MCP) and visible to the team's members
 * and to owners/admins; the forwarded claims carry the caller's team ids.
 */
let h: Harness;
let owner: TestUser;
let admin: TestUser;
let inTeam: TestUser;
let outside: TestUser;
let orgId: string;
let open: string;
let secret: string;
let teamId: string;
const ORIGIN = "http://control.test";
const COOKIE = "ams.session_token";
let mcpApp: { fetch(req: Request): Response | Promise<Response> } | undefined;

beforeAll(async () => {
  h = await createHarness({
    env: { AUTH_MODE: "session" },
    tenant: ({ database, tokens }) => {
      mcpApp = createMcpApp({ database, tokens, log: silentLogger });
      return createTenantApp({ database, tokens, log: silentLogger });
    },
    mcp: { fetch: (req) => (mcpApp as NonNullable<typeof mcpApp>).fetch(req) },
  });
  owner = await h.user("tina");
  admin = await h.user("adam");
  inTeam = await h.user("ivy");
  outside = await h.user("otto");
  const org = await h.org("Teams Inc", [
    [owner, "owner"],
    [admin, "admin"],
    [inTeam, "member"],
    [outside, "member"],
  ]);
  orgId = org.id;
  open = (await h.workspace(orgId, "Open")).id;
  secret = (await h.workspace(orgId, "Secret")).id;
}, 60_000);
afterAll(() => h.close());

async function session(user: TestUser): Promise<Credentials> {
  const res = await h.call("POST", "/auth/sign-in/username", {
    body: { username: user.username, password: user.password },
    headers: { origin: ORIGIN },
  });
  expect(res.status).toBe(200);
  return { cookies: { [COOKIE]: cookiesOf(res)[COOKIE] ?? "" } };
}

const write = (as: Credentials, method: string, path: string, body?: unknown) =>
  h.call(method, path, { as, body, headers: { origin: ORIGIN } });

async function workspaceNames(as: Credentials): Promise<string[]> {
  const res = await h.call("GET", "/api/workspaces", { as });
  expect(res.status).toBe(200);
  return ((await res.json()) as { name: string }[]).map((w) => w.name).sort();
}

describe("team management", () => {
  test("an owner creates a team, adds a member and assigns a workspace; a member may not", async () => {
    const o = await session(owner);
    const created = await write(o, "POST", `/api/organizations/${orgId}/teams`, { name: "Core" });
    expect(created.status).toBe(201);
    teamId = ((await created.json()) as { id: string }).id;
    expect((await write(o, "POST", `/api/organizations/${orgId}/teams`, { name: "Core" })).status).toBe(409);
    expect((await write(o, "PUT", `/api/organizations/${orgId}/teams/${teamId}/members/${inTeam.id}`)).status).toBe(
      204,
    );
    const assigned = await write(o, "PUT", `/api/workspaces/${secret}/teams`, { team_ids: [teamId] });
    expect(assigned.status).toBe(200);
    expect(await assigned.json()).toEqual({ workspace_id: secret, team_ids: [teamId] });
    const bad = await write(o, "PUT", `/api/workspaces/${secret}/teams`, { team_ids: [crypto.randomUUID()] });
    expect(bad.status).toBe(422);

    const m = await session(outside);
    expect((await write(m, "POST", `/api/organizations/${orgId}/teams`, { name: "Mine" })).status).toBe(403);
    expect((await write(m, "PUT", `/api/workspaces/${open}/teams`, { team_ids: [] })).status).toBe(403);
    const list = await h.call("GET", `/api/organizations/${orgId}/teams`, { as: m });
    expect(list.status).toBe(200);
    expect(await list.json()).toMatchObject([
      { id: teamId, name: "Core", member_ids: [inTeam.id], workspace_ids: [secret] },
    ]);
  });

  test("roles are the profile's: admin and member are accepted, editor refused with the allowed names", async () => {
    const o = await session(owner);
    const extra = await h.user("extra");
    const res = await write(o, "POST", `/api/organizations/${orgId}/members`, { username: "extra", role: "editor" });
    expect(res.status).toBe(422);
    expect((await res.json()).detail).toMatch(/owner, admin, member/);
    const ok = await write(o, "POST", `/api/organizations/${orgId}/members`, { username: "extra", role: "member" });
    expect(ok.status).toBe(201);
    expect(extra.id).toBeTruthy();
  });
});

describe("a team-restricted workspace", () => {
  test("is missing from a non-team member's list and answers 404 by id; the team member and admins see it", async () => {
    const m = await session(outside);
    expect(await workspaceNames(m)).toEqual(["Open"]);
    expect(
      (await h.call("POST", `/api/workspaces/${secret}/activate`, { as: m, headers: { origin: ORIGIN } })).status,
    ).toBe(404);
    expect((await h.call("GET", `/api/workspaces/${secret}/teams`, { as: m })).status).toBe(404);

    expect(await workspaceNames(await session(inTeam))).toEqual(["Open", "Secret"]);
    expect(await workspaceNames(await session(admin))).toEqual(["Open", "Secret"]);
    expect(await workspaceNames(await session(owner))).toEqual(["Open", "Secret"]);
  });

  test("never becomes the non-member's active workspace, so export and the model routes never reach it", async () => {
    // The outsider's stored selection points at the secret workspace (chosen before it was restricted).
    await h.select(outside.id, orgId, secret);
    const m = await session(outside);
    const me = await h.call("GET", "/api/me", { as: m });
    expect(((await me.json()) as { active_workspace_id: string | null }).active_workspace_id).not.toBe(secret);
    const exported = await h.call("GET", "/api/export", { as: m });
    expect(await exported.text()).not.toContain("Secret");

    await h.select(inTeam.id, orgId, secret);
    const t = await session(inTeam);
    const teamExport = await h.call("GET", "/api/export", { as: t });
    expect(teamExport.status).toBe(200);
    expect(await teamExport.text()).toContain("Secret");
  });
});

describe("MCP through the gateway", () => {
  async function tool(user: TestUser, name: string, args: Record<string, unknown> = {}) {
    const as = await session(user);
    const created = await write(as, "POST", "/api/settings/api-tokens", { name: "mcp", organization_id: orgId });
    expect(created.status).toBe(201);
    const { token } = (await created.json()) as { token: string };
    const res = await h.call("POST", "/mcp/", {
      as: { bearer: token },
      headers: { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-03-26" },
      body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } },
    });
    expect(res.status).toBe(200);
    return (await res.json()) as {
      result: { isError?: boolean; structuredContent?: unknown; content: { text?: string }[] };
    };
  }

  test("list_workspaces hides the restricted workspace from a non-team member, not from the team", async () => {
    const outsiderList = JSON.stringify((await tool(outside, "list_workspaces")).result);
    expect(outsiderList).toContain("Open");
    expect(outsiderList).not.toContain("Secret");
    expect(JSON.stringify((await tool(inTeam, "list_workspaces")).result)).toContain("Secret");
  });

  test("a tool call naming the restricted workspace is 'not found' for a non-team member", async () => {
    const denied = await tool(outside, "get_model_info", { workspace_id: secret });
    expect(denied.result.isError).toBe(true);
    expect(JSON.stringify(denied.result.content)).toMatch(/not found/i);
    const allowed = await tool(inTeam, "get_model_info", { workspace_id: secret });
    expect(allowed.result.isError).toBeFalsy();
  });

  test("a member's write through MCP is refused", async () => {
    const res = await tool(outside, "create_workspace", { name: "Nope" });
    expect(res.result.isError).toBe(true);
    expect(JSON.stringify(res.result.content)).toMatch(/role|not allow|forbidden/i);
  });
});
