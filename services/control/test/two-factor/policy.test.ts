import { memberships } from "@ams/db";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { totpCode } from "../../src/two-factor/totp.ts";
import { type Credentials, createHarness, type Harness, type TestUser } from "../support/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const json = async <T = Record<string, unknown>>(res: Response) => (await res.json()) as T;

/** Enrols the signed-in user through the routes (password, then the app's first code). */
async function enrol(user: TestUser, as: Credentials): Promise<void> {
  const start = await h.call("POST", "/api/auth/two-factor/enrol", { as, body: { password: user.password } });
  const { secret } = await json<{ secret: string }>(start);
  const confirm = await h.call("POST", "/api/auth/two-factor/confirm", {
    as,
    body: { code: totpCode(secret, h.clock.now()) },
  });
  expect(confirm.status).toBe(200);
}

describe("organization rule 'members must use two-factor' (local profile)", () => {
  test("owners set it (with two-factor themselves); members without it get 403 TWO_FACTOR_REQUIRED until they enrol; API tokens are unaffected", async () => {
    const owner = await h.user("pol-owner");
    const editor = await h.user("pol-editor");
    const org = await h.org("Policy", [
      [owner, "owner"],
      [editor, "editor"],
    ]);
    await h.workspace(org.id, "Policy model");
    const ownerAs = await h.session(owner);
    const editorAs = await h.session(editor);
    const token = await json<{ token: string }>(
      await h.call("POST", "/api/settings/api-tokens", { as: editorAs, body: { organization_id: org.id } }),
    );

    const put = (as: Credentials, body: unknown) => h.call("PUT", `/api/organizations/${org.id}`, { as, body });
    // An editor cannot set it (org:rename is not enough); an owner without two-factor is told to enrol first.
    expect((await put(editorAs, { require_two_factor: true })).status).toBe(403);
    const early = await put(ownerAs, { require_two_factor: true });
    expect(early.status).toBe(409);
    expect((await json(early)).detail).toMatch(/Turn on two-factor for your own account first/);
    await enrol(owner, ownerAs);
    const set = await put(ownerAs, { require_two_factor: true });
    expect(set.status).toBe(200);
    expect(await json(set)).toMatchObject({ id: org.id, name: "Policy", require_two_factor: true });

    // The editor's browser session: refused on the organization's routes, with a code the UI acts on.
    for (const path of ["/api/workspaces", `/api/organizations/${org.id}/members`]) {
      const res = await h.call("GET", path, { as: editorAs });
      expect(res.status).toBe(403);
      expect(await json(res)).toMatchObject({ code: "TWO_FACTOR_REQUIRED", status: 403 });
    }
    // What the UI needs to send them to enrolment still answers.
    const me = await json(await h.call("GET", "/api/me", { as: editorAs }));
    expect(me).toMatchObject({
      two_factor_enabled: false,
      memberships: [{ organization_id: org.id, requires_two_factor: true }],
    });
    const status = await json(await h.call("GET", "/api/auth/two-factor", { as: editorAs }));
    expect(status).toMatchObject({
      enabled: false,
      required_by: [{ organization_id: org.id, organization_name: "Policy" }],
    });
    // The editor's API token keeps working.
    expect((await h.call("GET", "/api/workspaces", { as: { bearer: token.token } })).status).toBe(200);
    // The owner (with two-factor) is not held up.
    expect((await h.call("GET", "/api/workspaces", { as: ownerAs })).status).toBe(200);

    await enrol(editor, editorAs);
    expect((await h.call("GET", "/api/workspaces", { as: editorAs })).status).toBe(200);
    expect((await h.call("GET", `/api/organizations/${org.id}/members`, { as: editorAs })).status).toBe(200);

    // Turning it off lets a member without two-factor in again.
    const outsider = await h.user("pol-viewer");
    await h.db.insert(memberships).values({ organizationId: org.id, userId: outsider.id, role: "viewer" });
    const viewerAs = await h.session(outsider);
    expect((await h.call("GET", "/api/workspaces", { as: viewerAs })).status).toBe(403);
    expect((await put(ownerAs, { require_two_factor: false })).status).toBe(200);
    expect((await h.call("GET", "/api/workspaces", { as: viewerAs })).status).toBe(200);
  });
});
