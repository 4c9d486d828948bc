import { apiTokens, memberships, organizations } from "@ams/db";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sha256Hex } from "../../src/auth/secrets.ts";
import { type Credentials, createHarness, type Harness, type TestUser } from "../support/harness.ts";
import { firstRow } from "../support/rows.ts";

let h: Harness;
let owner: TestUser;
let editor: TestUser;
let ownerSession: Credentials;
let editorSession: Credentials;
let org: { id: string };
let ws: { id: string };

beforeAll(async () => {
  h = await createHarness();
  owner = await h.user("owen");
  editor = await h.user("edna");
  org = await h.org("Tokens Inc", [
    [owner, "owner"],
    [editor, "editor"],
  ]);
  ws = await h.workspace(org.id);
  ownerSession = await h.session(owner);
  editorSession = await h.session(editor);
});
afterAll(() => h.close());

async function createToken(as: Credentials, body: Record<string, unknown>) {
  const res = await h.call("POST", "/api/settings/api-tokens", { as, body });
  return { res, json: res.status === 201 ? await res.json() : await res.json().catch(() => null) };
}

const elements = (token: string) => h.call("GET", "/api/elements", { as: { bearer: token } });
const writeElement = (token: string) =>
  h.call("POST", "/api/elements", { as: { bearer: token }, body: { name: "x", type: "Node" } });

describe("personal API tokens", () => {
  test("are shown once as ams_pat_<40 base62>, stored as SHA-256 with a display prefix", async () => {
    const { res, json } = await createToken(editorSession, { organization_id: org.id, name: "ci" });
    expect(res.status).toBe(201);
    expect(json.token).toMatch(/^ams_pat_[0-9A-Za-z]{40}$/);
    expect(json.prefix).toBe(json.token.slice(0, 14));
    const row = await firstRow(h.db.select().from(apiTokens).where(eq(apiTokens.id, json.id)), "the token row");
    expect(row.tokenHash).toBe(sha256Hex(json.token));
    expect(JSON.stringify(row)).not.toContain(json.token);

    const list = await h.call("GET", "/api/settings/api-tokens", { as: editorSession });
    const listed = await list.json();
    expect(listed.map((t: { id: string }) => t.id)).toContain(json.id);
    expect(JSON.stringify(listed)).not.toContain(json.token);
    expect(listed.find((t: { id: string }) => t.id === json.id)).toMatchObject({
      name: "ci",
      organization_id: org.id,
      workspace_id: null,
      expires_at: null,
      expired: false,
    });
  });

  test("authenticate REST with the owner's live role and the token's organization", async () => {
    const { json } = await createToken(editorSession, { organization_id: org.id });
    expect((await elements(json.token)).status).toBe(200);
    expect(h.recorder.last().claims).toMatchObject({
      userId: editor.id,
      organizationId: org.id,
      workspaceId: ws.id,
      role: "editor",
      apiTokenId: json.id,
      platformAdmin: false,
    });
  });

  test("need organization_id and a membership there (404 otherwise); workspace must be in it", async () => {
    const foreign = await h.org("Foreign");
    const foreignWs = await h.workspace(foreign.id);
    expect((await createToken(editorSession, {})).res.status).toBe(422);
    expect((await createToken(editorSession, { organization_id: foreign.id })).res.status).toBe(404);
    expect((await createToken(editorSession, { organization_id: org.id, workspace_id: foreignWs.id })).res.status).toBe(
      422,
    );
    const past = new Date(h.clock.now().getTime() - 1000).toISOString();
    expect((await createToken(editorSession, { organization_id: org.id, expires_at: past })).res.status).toBe(422);
  });

  test("Admin cannot create one (403), even as a member", async () => {
    const admin = await h.user("adele", { platformAdmin: true });
    await h.db.insert(memberships).values({ organizationId: org.id, userId: admin.id, role: "owner" });
    const { res } = await createToken(await h.session(admin), { organization_id: org.id });
    expect(res.status).toBe(403);
  });

  test("cannot manage tokens with a token", async () => {
    const { json } = await createToken(editorSession, { organization_id: org.id });
    const res = await h.call("POST", "/api/settings/api-tokens", {
      as: { bearer: json.token },
      body: { organization_id: org.id },
    });
    expect(res.status).toBe(403);
    expect((await h.call("GET", "/api/settings/api-tokens", { as: { bearer: json.token } })).status).toBe(403);
  });

  test("a pinned workspace wins over the interactive selection and fences other workspaces", async () => {
    const other = await h.workspace(org.id, "Other");
    await h.select(editor.id, org.id, other.id);
    const { json } = await createToken(editorSession, { organization_id: org.id, workspace_id: ws.id });
    await elements(json.token);
    expect(h.recorder.last().claims).toMatchObject({ workspaceId: ws.id });
    const activate = await h.call("POST", `/api/workspaces/${other.id}/activate`, { as: { bearer: json.token } });
    expect(activate.status).toBe(404);
    // An unpinned token follows the user's selection inside its organization.
    const loose = await createToken(editorSession, { organization_id: org.id });
    await elements(loose.json.token);
    expect(h.recorder.last().claims).toMatchObject({ workspaceId: other.id });
  });

  test("the token's organization wins over the interactive choice", async () => {
    const second = await h.org("Second", [[editor, "viewer"]]);
    const secondWs = await h.workspace(second.id);
    const { json } = await createToken(editorSession, { organization_id: org.id });
    await h.select(editor.id, second.id, secondWs.id);
    await elements(json.token);
    expect(h.recorder.last().claims).toMatchObject({ organizationId: org.id, role: "editor" });
    expect(
      (await h.call("GET", `/api/organizations/${second.id}/members`, { as: { bearer: json.token } })).status,
    ).toBe(404);
  });
});

describe("re-resolution on every request", () => {
  test("demotion takes effect at once", async () => {
    const user = await h.user("demoted");
    await h.db.insert(memberships).values({ organizationId: org.id, userId: user.id, role: "editor" });
    const { json } = await createToken(await h.session(user), { organization_id: org.id });
    expect((await writeElement(json.token)).status).toBe(200);
    await h.call("PUT", `/api/organizations/${org.id}/members/${user.id}`, {
      as: ownerSession,
      body: { role: "viewer" },
    });
    expect((await writeElement(json.token)).status).toBe(403);
    expect((await elements(json.token)).status).toBe(200);
  });

  test("removal takes effect at once (and revokes the member's tokens)", async () => {
    const user = await h.user("removed");
    await h.db.insert(memberships).values({ organizationId: org.id, userId: user.id, role: "viewer" });
    const { json } = await createToken(await h.session(user), { organization_id: org.id });
    expect((await elements(json.token)).status).toBe(200);
    expect(
      (await h.call("DELETE", `/api/organizations/${org.id}/members/${user.id}`, { as: ownerSession })).status,
    ).toBe(204);
    expect((await elements(json.token)).status).toBe(401);
    // Even a token whose row was not revoked (membership deleted directly) stops working: 404 hides the org.
    const again = await h.user("removed2");
    await h.db.insert(memberships).values({ organizationId: org.id, userId: again.id, role: "viewer" });
    const second = await createToken(await h.session(again), { organization_id: org.id });
    await h.db.delete(memberships).where(and(eq(memberships.organizationId, org.id), eq(memberships.userId, again.id)));
    expect((await elements(second.json.token)).status).toBe(404);
  });

  test("suspension takes effect at once and is lifted by reactivation", async () => {
    const { json } = await createToken(editorSession, { organization_id: org.id });
    await h.db.update(organizations).set({ enabled: false }).where(eq(organizations.id, org.id));
    expect((await elements(json.token)).status).toBe(403);
    await h.db.update(organizations).set({ enabled: true }).where(eq(organizations.id, org.id));
    expect((await elements(json.token)).status).toBe(200);
  });

  test("revocation takes effect at once; only the owner can revoke", async () => {
    const { json } = await createToken(editorSession, { organization_id: org.id });
    expect((await h.call("DELETE", `/api/settings/api-tokens/${json.id}`, { as: ownerSession })).status).toBe(404);
    expect((await h.call("DELETE", `/api/settings/api-tokens/${json.id}`, { as: editorSession })).status).toBe(204);
    expect((await elements(json.token)).status).toBe(401);
    expect((await h.call("DELETE", `/api/settings/api-tokens/${json.id}`, { as: editorSession })).status).toBe(404);
  });

  test("expiry takes effect at once", async () => {
    const expiresAt = new Date(h.clock.now().getTime() + 60_000).toISOString();
    const { json } = await createToken(editorSession, { organization_id: org.id, expires_at: expiresAt });
    expect((await elements(json.token)).status).toBe(200);
    h.clock.advance(61_000);
    expect((await elements(json.token)).status).toBe(401);
  });

  test("a token pinned to a deleted workspace is gone with it", async () => {
    const doomed = await h.workspace(org.id, "Doomed");
    const { json } = await createToken(editorSession, { organization_id: org.id, workspace_id: doomed.id });
    expect((await elements(json.token)).status).toBe(200);
    await h.database.rows(sql`delete from workspaces where id = ${doomed.id}`);
    expect((await elements(json.token)).status).toBe(401);
  });
});
