import { randomUUID } from "node:crypto";
import { sql } from "@ams/db";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { createElement, createNode, createView, createWorkspace, type RequestContext, updateElement } from "@ams/model";
import { createServiceTokens, type ServiceClaims, silentLogger } from "@ams/shared";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createMcpApp } from "../src/index.ts";
import { postMcp } from "./support/post.ts";
import { SECRET } from "./support/stack.ts";

/**
 * render_view's answer, served by the tools/call shortcut from the serialized bytes of a remembered picture's result
 * (src/tools-call-shortcut.ts, src/tools/views.ts): byte for byte the SDK's answer, first and remembered, and never
 * another caller's. A request without Content-Length goes the SDK's way, which gives the reference answer.
 */
let database: TestDatabase;
let app: ReturnType<typeof createMcpApp>;
const tokens = createServiceTokens(SECRET);
type Where = { organizationId: string; workspaceId: string };
const claims = (role: ServiceClaims["role"], where: Where): ServiceClaims => ({
  userId: "00000000-0000-4000-8000-000000000001",
  username: "ann",
  ...where,
  role,
  platformAdmin: false,
  apiTokenId: null,
});

beforeAll(async () => {
  database = await createTestDatabase("ams_mcp_render_answer");
  app = createMcpApp({ database, tokens, log: silentLogger });
});
afterAll(async () => {
  await database?.drop();
});

/** POSTs `body` as `role` of the workspace `where` (support/post.ts: sized, or streamed for the SDK). */
async function post(role: ServiceClaims["role"], body: string, how: "sized" | "streamed", where: Where) {
  return postMcp(app, await tokens.sign(claims(role, where), "mcp"), body, how);
}

/** A workspace of its own organization with one small view, "landscape". */
async function workspaceWithView() {
  const organizationId = randomUUID();
  await database.rows(
    sql`insert into organizations (id, slug, name) values (${organizationId}, ${`o-${organizationId}`}, 'Pictures')`,
  );
  const owner: RequestContext = {
    database,
    userId: "00000000-0000-4000-8000-000000000001",
    username: "ann",
    actorName: "Ann",
    organizationId,
    workspaceId: null,
    role: "owner",
    platformAdmin: false,
    via: { kind: "browser", name: null },
  };
  const ctx = { ...owner, workspaceId: (await createWorkspace({ ctx: owner, input: { name: "Pictures" } })).id };
  await createElement({ ctx, input: { id: "crm", name: "CRM System", type: "ApplicationComponent" } });
  await createView({ ctx, input: { id: "landscape", name: "Landscape" } });
  await createNode({ ctx, input: { view_id: "landscape", id: "n-crm", element_id: "crm", x: 10, y: 10 } });
  return { ctx, where: { organizationId, workspaceId: ctx.workspaceId } };
}

const renderCall = (id: number | string, args: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "render_view", arguments: args } });

describe("render_view answered with its result's serialized bytes", () => {
  test("a first and a remembered picture, PNG and SVG, byte for byte what the SDK answers", async () => {
    const { where } = await workspaceWithView();
    for (const args of [
      { view_id: "landscape" },
      { view_id: "landscape", format: "svg" },
      { view_id: "landscape", scale: 2 },
    ]) {
      const first = await post("viewer", renderCall(1, args), "sized", where);
      const sdk = await post("viewer", renderCall(1, args), "streamed", where);
      const again = await post("editor", renderCall("r-2", args), "sized", where);
      expect(first, JSON.stringify(args)).toEqual(sdk);
      expect(first.status).toBe(200);
      expect(JSON.parse(first.text).result.isError).toBeUndefined();
      expect(again.text).toBe(first.text.replace(/"id":1}$/, '"id":"r-2"}'));
    }
    // A refusal (an unknown view, arguments that do not fit) is the SDK's answer too.
    for (const args of [{ view_id: "nowhere" }, { view_id: "landscape", scale: 99 }]) {
      const sized = await post("viewer", renderCall(5, args), "sized", where);
      expect(sized, JSON.stringify(args)).toEqual(await post("viewer", renderCall(5, args), "streamed", where));
      expect(JSON.parse(sized.text).result.isError).toBe(true);
    }
  });

  test("a remembered answer reaches only callers the tool lets see it, and never survives a change", async () => {
    const { ctx, where } = await workspaceWithView();
    const mine = await post("viewer", renderCall(1, { view_id: "landscape", format: "svg" }), "sized", where);
    expect(mine.text).toContain("CRM System");
    // Another organization's workspace has a view of the same id: its caller gets that view, never ours; a caller
    // of a workspace that does not exist gets a refusal.
    const other = await workspaceWithView();
    await updateElement({ ctx: other.ctx, input: { id: "crm", name: "Their CRM" } });
    const theirs = await post("viewer", renderCall(1, { view_id: "landscape", format: "svg" }), "sized", other.where);
    expect(theirs.text).toContain("Their CRM");
    expect(theirs.text).not.toContain("CRM System");
    const stranger = await post("viewer", renderCall(1, { view_id: "landscape", format: "svg" }), "sized", {
      organizationId: randomUUID(),
      workspaceId: randomUUID(),
    });
    expect(JSON.parse(stranger.text).result.isError).toBe(true);
    expect(stranger.text).not.toContain("CRM System");
    // A change to the workspace draws and serializes the view anew.
    await updateElement({ ctx, input: { id: "crm", name: "Customer Hub" } });
    const changed = await post("viewer", renderCall(1, { view_id: "landscape", format: "svg" }), "sized", where);
    expect(changed.text).toContain("Customer Hub");
    expect(changed.text).not.toContain("CRM System");
  });
});
