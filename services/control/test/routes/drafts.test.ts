import { compactHistory } from "@ams/model";
import { silentLogger } from "@ams/shared";
import { createTenantApp } from "@ams/tenant";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Credentials, createHarness, type Harness } from "../support/harness.ts";

/**
 * Drafts and review over REST, through the gateway into the real tenant on real PostgreSQL: an editor forks
 * "Target 2027", changes it while the owner renames the same element in the base, the conflict is listed and
 * resolved, and the base's history shows the merge.
 */
let h: Harness;
let owner: Credentials;
let editor: Credentials;
let viewer: Credentials;
let stranger: Credentials;
let base: string;

beforeAll(async () => {
  h = await createHarness({
    tenant: ({ database, tokens }) => createTenantApp({ database, tokens, log: silentLogger }),
  });
  const [o, e, v, s] = await Promise.all([
    h.user("d-owner"),
    h.user("d-editor"),
    h.user("d-viewer"),
    h.user("d-other"),
  ]);
  await h.org("Drafts", [
    [o, "owner"],
    [e, "editor"],
    [v, "viewer"],
  ]);
  const other = await h.org("Elsewhere", [[s, "owner"]]);
  await h.workspace(other.id, "Theirs");
  owner = await h.session(o);
  editor = await h.session(e);
  viewer = await h.session(v);
  stranger = await h.session(s);
  const created = await h.call("POST", "/api/workspaces", { as: owner, body: { name: "Car insurance claims" } });
  expect(created.status).toBe(201);
  base = ((await created.json()) as { id: string }).id;
});
afterAll(async () => h?.close());

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as Record<string, any> });
const call = async (as: Credentials, method: string, path: string, body?: unknown) =>
  json(await h.call(method, path, { as, body }));

describe("a draft over REST", () => {
  test("fork, change, conflict, resolve, merge; then the draft is read-only", async () => {
    expect((await call(owner, "POST", `/api/workspaces/${base}/activate`)).status).toBe(200);
    const crm = await call(owner, "POST", "/api/elements", { name: "CRM", type: "ApplicationComponent" });
    expect(crm.status).toBe(201);

    const forked = await call(editor, "POST", `/api/workspaces/${base}/drafts`, { name: "Target 2027" });
    expect(forked.status).toBe(201);
    const draft = forked.body;
    expect(draft).toMatchObject({ name: "Target 2027", base_workspace_id: base, state: "open", revision: 0 });
    expect(draft.base_revision).toBeGreaterThan(0);
    const listed = await call(viewer, "GET", "/api/workspaces");
    expect(listed.body.map((w: { id: string }) => w.id)).toEqual([base]);
    expect((await call(viewer, "GET", `/api/workspaces/${base}/drafts`)).body.map((d: { id: string }) => d.id)).toEqual(
      [draft.id],
    );

    // The editor works in the draft; the owner goes on in the base.
    expect((await call(editor, "POST", `/api/workspaces/${draft.id}/activate`)).status).toBe(200);
    const info = await call(editor, "GET", "/api");
    expect(info.body.draft).toMatchObject({
      base_workspace_id: base,
      base_name: "Car insurance claims",
      state: "open",
    });
    expect((await call(editor, "PUT", `/api/elements/${crm.body.id}`, { name: "CRM 2027" })).status).toBe(200);
    expect(
      (await call(editor, "POST", "/api/elements", { name: "Claims portal", type: "ApplicationComponent" })).status,
    ).toBe(201);
    expect((await call(owner, "PUT", `/api/elements/${crm.body.id}`, { name: "Customer CRM" })).status).toBe(200);

    const changes = await call(viewer, "GET", `/api/drafts/${draft.id}/changes`);
    expect(changes.status).toBe(200);
    expect(changes.body.elements.added.map((e: { name: string }) => e.name)).toEqual(["Claims portal"]);
    expect(changes.body.elements.changed[0].fields).toEqual([{ field: "name", before: "CRM", after: "CRM 2027" }]);
    const conflicts = await call(viewer, "GET", `/api/drafts/${draft.id}/conflicts`);
    expect(conflicts.body.conflicts).toEqual([
      expect.objectContaining({
        key: `element:${crm.body.id}:name`,
        kind: "element",
        field: "name",
        base: "CRM",
        draft: "CRM 2027",
        current: "Customer CRM",
      }),
    ]);

    expect((await call(viewer, "POST", `/api/drafts/${draft.id}/merge`, {})).status).toBe(403);
    expect((await call(stranger, "POST", `/api/drafts/${draft.id}/merge`, {})).status).toBe(404);
    const refused = await call(editor, "POST", `/api/drafts/${draft.id}/merge`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.errors.map((e: { path: string }) => e.path)).toEqual([`element:${crm.body.id}:name`]);
    const unknown = await call(editor, "POST", `/api/drafts/${draft.id}/merge`, {
      resolutions: { "element:nope:name": "draft", [`element:${crm.body.id}:name`]: "sideways" },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([
      { path: `resolutions.element:${crm.body.id}:name`, message: `expected 'draft', 'current' or {"value": ...}` },
    ]);
    // Unknown keys and values that do not fit are named together, each with its reason.
    const unfit = await call(editor, "POST", `/api/drafts/${draft.id}/merge`, {
      resolutions: { "element:nope:name": "draft", [`element:${crm.body.id}:name`]: { value: 7 } },
    });
    expect(unfit.status).toBe(422);
    expect(unfit.body.errors).toEqual([
      { path: "resolutions.element:nope:name", message: expect.stringContaining("no such conflict") },
      { path: `resolutions.element:${crm.body.id}:name`, message: "7 is a number; name holds a string" },
    ]);
    expect(unfit.body.detail).toContain("resolutions.element:nope:name");

    expect((await call(editor, "POST", `/api/drafts/${draft.id}/submit`)).body.state).toBe("submitted");
    const review = await call(owner, "POST", `/api/drafts/${draft.id}/reviews`, { decision: "approve", comment: "Go" });
    expect(review.status).toBe(201);
    const comment = await call(viewer, "POST", `/api/drafts/${draft.id}/comments`, {
      object_id: crm.body.id,
      text: "Keep the old name somewhere?",
    });
    expect(comment.status).toBe(201);
    const detail = await call(viewer, "GET", `/api/drafts/${draft.id}`);
    expect(detail.body).toMatchObject({ state: "submitted", approvals: 1, changes: 2 });
    expect(detail.body.comments.map((c: { text: string }) => c.text)).toEqual(["Keep the old name somewhere?"]);

    const merged = await call(editor, "POST", `/api/drafts/${draft.id}/merge`, {
      resolutions: { [`element:${crm.body.id}:name`]: { value: "CRM (customer)" } },
    });
    expect(merged.status).toBe(200);
    expect(merged.body.summary).toBe("Merged draft 'Target 2027' (reviewed by d-owner)");
    expect(merged.body.draft.state).toBe("merged");
    expect((await call(owner, "GET", `/api/elements/${crm.body.id}`)).body.name).toBe("CRM (customer)");
    const history = await call(viewer, "GET", `/api/workspaces/${base}/history?limit=1`);
    expect(history.body.items[0].summary).toBe("Merged draft 'Target 2027' (reviewed by d-owner)");

    const late = await call(editor, "PUT", `/api/elements/${crm.body.id}`, { name: "Too late" });
    expect(late.status).toBe(409);
    expect(late.body.detail).toContain("Draft 'Target 2027' was merged into 'Car insurance claims'");
    expect((await call(editor, "POST", `/api/drafts/${draft.id}/merge`, {})).status).toBe(409);
  });

  test("an ordinary workspace is no draft; another organization's draft is not found", async () => {
    expect((await call(owner, "GET", `/api/drafts/${base}`)).status).toBe(404);
    const forked = await call(owner, "POST", `/api/workspaces/${base}/drafts`, { name: "Scratch" });
    expect((await call(stranger, "GET", `/api/drafts/${forked.body.id}/changes`)).status).toBe(404);
    expect((await call(viewer, "POST", `/api/workspaces/${base}/drafts`, { name: "No" })).status).toBe(403);
    const deleted = await h.call("DELETE", `/api/workspaces/${base}`, { as: owner });
    expect(deleted.status).toBe(204);
    expect(deleted.headers.get("x-drafts-closed")).toBe("1");
    const closed = await call(owner, "GET", `/api/drafts/${forked.body.id}`);
    expect(closed.body).toMatchObject({ state: "closed", base_workspace_id: null });
    // With the base gone, nobody is given a closed draft as their workspace, and no list shows drafts.
    const me = await call(viewer, "GET", "/api/me");
    expect(me.status).toBe(200);
    const active: string | null = me.body.active_workspace_id;
    if (active) expect((await call(viewer, "GET", `/api/drafts/${active}`)).status).toBe(404);
    const listed = await call(owner, "GET", "/api/workspaces");
    expect(listed.body.map((w: { id: string }) => w.id)).not.toContain(forked.body.id);
    expect(closed.body.closed_reason).toBe("Its base workspace 'Car insurance claims' was deleted");

    // Kept for export: the closed draft still opens and exports, read-only.
    expect((await call(owner, "POST", `/api/workspaces/${forked.body.id}/activate`)).status).toBe(200);
    const exported = await h.call("GET", "/api/export", { as: owner });
    expect(exported.status).toBe(200);
    expect(await exported.text()).toContain("<model");
    const write = await call(owner, "POST", "/api/elements", { name: "Late", type: "Node" });
    expect(write.status).toBe(409);
    expect(write.body.detail).toContain("Its base workspace 'Car insurance claims' was deleted");

    // Until HISTORY_RETENTION_DAYS: the retention run a day later keeps it, one past the retention removes it.
    const days = 30;
    await compactHistory(h.database, days, new Date(Date.now() + 86_400_000));
    expect((await call(owner, "GET", `/api/drafts/${forked.body.id}`)).status).toBe(200);
    await compactHistory(h.database, days, new Date(Date.now() + (days + 1) * 86_400_000));
    expect((await call(owner, "GET", `/api/drafts/${forked.body.id}`)).status).toBe(404);
  });
});
