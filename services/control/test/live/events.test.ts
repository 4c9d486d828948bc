import { sql } from "@ams/db";
import { type ChangeEvent, createElement, type RequestContext, updateElement } from "@ams/model";
import { testLogger } from "@ams/shared";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createLive, type Live } from "../../src/live/live.ts";
import { type Credentials, createHarness, type Harness, type TestUser } from "../support/harness.ts";
import { sseReader } from "../support/sse.ts";

/**
 * The events stream through the real gateway on real PostgreSQL (local profile): changes committed by the model's
 * verbs arrive in order, a reconnect resumes from the log, bad resume points resync, a lost access ends the stream,
 * another organization's workspace is 404 and no credentials 401.
 */
let h: Harness;
let live: Live;
let owner: TestUser;
let editor: TestUser;
let stranger: TestUser;
let orgId: string;
let ws: string;
let otherWs: string;
let asOwner: Credentials;
let asEditor: Credentials;
let asStranger: Credentials;

beforeAll(async () => {
  h = await createHarness({
    live: (database) => (live = createLive({ database, log: testLogger("live"), recheckMs: 500 })),
  });
  [owner, editor, stranger] = await Promise.all([h.user("ev-owner"), h.user("ev-editor"), h.user("ev-stranger")]);
  const org = await h.org("Events", [
    [owner, "owner"],
    [editor, "editor"],
  ]);
  orgId = org.id;
  ws = (await h.workspace(org.id, "Live")).id;
  const other = await h.org("Elsewhere", [[stranger, "owner"]]);
  otherWs = (await h.workspace(other.id, "Theirs")).id;
  [asOwner, asEditor, asStranger] = await Promise.all([h.session(owner), h.session(editor), h.session(stranger)]);
}, 60_000);
afterAll(async () => {
  await live?.close();
  await h?.close();
});

const modelContext = (workspaceId: string, who: TestUser): RequestContext => ({
  database: h.database,
  userId: who.id,
  username: who.username,
  actorName: `${who.username} (name)`,
  organizationId: orgId,
  workspaceId,
  role: "owner",
  platformAdmin: false,
  via: { kind: "browser", name: null },
});

const stream = (workspaceId: string, as: Credentials, headers: Record<string, string> = {}, query = "") =>
  h.call("GET", `/api/workspaces/${workspaceId}/events${query}`, { as, headers });

const data = <T>(e: { data: unknown } | null) => e?.data as T;

describe("events of a workspace", () => {
  test("no credentials: 401; another organization's workspace: 404", async () => {
    expect((await stream(ws, null)).status).toBe(401);
    expect((await stream(ws, asStranger)).status).toBe(404);
    expect((await stream(otherWs, asOwner)).status).toBe(404);
  });

  test("each committed change arrives once, in order, with who, how and the objects' new state", async () => {
    const res = await stream(ws, asEditor);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    expect(res.headers.get("x-accel-buffering")).toBe("no");
    const events = sseReader(res);
    const ready = await events.next();
    expect(ready?.event).toBe("ready");
    const start = data<{ revision: number }>(ready).revision;
    expect((await events.next())?.event).toBe("presence");

    const ctx = modelContext(ws, owner);
    await createElement({ ctx, input: { id: "crm", name: "CRM", type: "ApplicationComponent" } });
    await updateElement({ ctx, input: { id: "crm", name: "CRM system" } });
    const first = await events.nextOf("change");
    const second = await events.nextOf("change");
    expect([first?.id, second?.id]).toEqual([`${ws}:${start + 1}`, `${ws}:${start + 2}`]);
    expect(data<ChangeEvent>(first)).toMatchObject({
      revision: start + 1,
      actor: { id: owner.id, name: "ev-owner (name)" },
      via: { kind: "browser", name: null },
      objects: [{ kind: "element", id: "crm", op: "create", state: { name: "CRM", type: "ApplicationComponent" } }],
      truncated: false,
    });
    expect(data<ChangeEvent>(second).objects).toMatchObject([
      { id: "crm", op: "update", state: { name: "CRM system" } },
    ]);
    await events.cancel();
  });

  test("Last-Event-ID resumes from the log; since= starts after the page's revision", async () => {
    const ctx = modelContext(ws, owner);
    const base = (await createElement({ ctx, input: { id: "resume-a", name: "A", type: "Node" } })).revision;
    await createElement({ ctx, input: { id: "resume-b", name: "B", type: "Node" } });
    await createElement({ ctx, input: { id: "resume-c", name: "C", type: "Node" } });

    const resumed = sseReader(await stream(ws, asEditor, { "last-event-id": `${ws}:${base}` }));
    expect(data<{ revision: number }>(await resumed.next())).toEqual({ revision: base });
    const caught = [await resumed.nextOf("change"), await resumed.nextOf("change")];
    expect(caught.map((e) => data<ChangeEvent>(e).objects[0]?.id)).toEqual(["resume-b", "resume-c"]);
    // Then live.
    await createElement({ ctx, input: { id: "resume-d", name: "D", type: "Node" } });
    expect(data<ChangeEvent>(await resumed.nextOf("change")).objects[0]?.id).toBe("resume-d");
    await resumed.cancel();

    const fromPage = sseReader(await stream(ws, asEditor, {}, `?since=${base + 2}`));
    expect(data<ChangeEvent>(await fromPage.nextOf("change")).objects[0]?.id).toBe("resume-d");
    await fromPage.cancel();
  });

  test("a resume point that is malformed, another workspace's or in the future: resync, never their events", async () => {
    const ctx = modelContext(ws, owner);
    const latest = (await createElement({ ctx, input: { id: "resync-a", name: "A", type: "Node" } })).revision;
    for (const [lastEventId, reason] of [
      ["not-a-number", "malformed"],
      [`${otherWs}:1`, "other_workspace"],
      [`${ws}:${latest + 50}`, "future"],
    ] as const) {
      const events = sseReader(await stream(ws, asEditor, { "last-event-id": lastEventId }));
      const first = await events.next();
      expect(first?.event).toBe("resync");
      expect(first?.data).toEqual({ reason, revision: latest });
      expect(first?.id).toBe(`${ws}:${latest}`);
      // Live from the latest revision on.
      expect(data<{ revision: number }>(await events.next())).toEqual({ revision: latest });
      await events.cancel();
    }
  });

  test("too far behind to catch up: resync", async () => {
    const far = (await h.workspace(orgId, "Far")).id;
    // 1,100 groups written straight into the log (their content does not matter here).
    await h.database.rows(sql`
      with g as (
        insert into change_groups (workspace_id, revision, via_kind, summary)
        select ${far}, n, 'system', 'filler' from generate_series(1, 1100) n returning 1)
      update workspaces set revision = 1100 where id = ${far} and (select count(*) from g) = 1100`);
    const events = sseReader(await stream(far, asEditor, { "last-event-id": `${far}:5` }));
    expect(await events.next()).toMatchObject({ event: "resync", data: { reason: "too_far_behind", revision: 1100 } });
    await events.cancel();
    // Within reach: caught up from the log, in order.
    const near = sseReader(await stream(far, asEditor, { "last-event-id": `${far}:1000` }));
    const got: number[] = [];
    while (got.length < 100) got.push(data<ChangeEvent>(await near.nextOf("change")).revision);
    expect(got).toEqual(Array.from({ length: 100 }, (_, i) => 1001 + i));
    await near.cancel();
  });

  test("a consumer that does not read is cut off with a resync, its queue bounded", async () => {
    const ctx = modelContext(ws, owner);
    const res = await stream(ws, asEditor);
    const documentation = "x".repeat(60_000);
    // Nothing reads the stream while these are committed: about 60 KB each against a 256 KB queue.
    for (let i = 0; i < 8; i++)
      await createElement({ ctx, input: { id: `slow-${i}`, name: `Slow ${i}`, type: "Node", documentation } });
    const events = sseReader(res);
    const all = await events.rest();
    expect(all.at(-1)).toMatchObject({ event: "resync", data: { reason: "slow" } });
    expect(all.filter((e) => e.event === "change").length).toBeLessThan(8);
  });

  test("access lost: a member removed from the organization, a revoked API token -> the stream closes", async () => {
    const gone = await h.user("ev-leaving");
    const [team] = [await h.org("Leaving", [[gone, "editor"]])];
    const leavingWs = (await h.workspace(team.id, "Leaving")).id;
    const leaving = await h.session(gone);
    const removed = sseReader(await stream(leavingWs, leaving));
    expect((await removed.next())?.event).toBe("ready");
    await h.database.rows(sql`delete from memberships where user_id = ${gone.id}`);
    expect((await removed.rest()).at(-1)).toEqual({ event: "closed", data: { reason: "access" } });

    const created = await h.call("POST", "/api/settings/api-tokens", {
      as: asEditor,
      body: { organization_id: orgId },
    });
    const token = (await created.json()) as { id: string; token: string };
    const byToken = sseReader(await stream(ws, { bearer: token.token }));
    expect((await byToken.next())?.event).toBe("ready");
    expect((await h.call("DELETE", `/api/settings/api-tokens/${token.id}`, { as: asEditor })).status).toBe(204);
    expect((await byToken.rest()).at(-1)).toEqual({ event: "closed", data: { reason: "access" } });
  });
});

describe("presence", () => {
  test("a presence reaches the others' streams and the list; bad input is 422", async () => {
    const watching = sseReader(await stream(ws, asOwner));
    expect((await watching.next())?.event).toBe("ready");
    expect(data<{ present: unknown[] }>(await watching.next()).present).toEqual([]);
    const set = await h.call("POST", `/api/workspaces/${ws}/presence`, {
      as: asEditor,
      body: { view_id: "view-1", selection: ["crm", "crm"], client_id: "tab-1" },
    });
    expect(set.status).toBe(200);
    const seen = data<{ present: { user: { id: string }; view_id: string; selection: string[]; color: string }[] }>(
      await watching.nextOf("presence"),
    );
    expect(seen.present).toEqual([
      expect.objectContaining({
        user: { id: editor.id, name: expect.any(String) },
        client_id: "tab-1",
        view_id: "view-1",
        selection: ["crm"],
        color: expect.stringMatching(/^#[0-9a-f]{6}$/),
      }),
    ]);
    const listed = (await (await h.call("GET", `/api/workspaces/${ws}/presence`, { as: asOwner })).json()) as {
      present: unknown[];
      lease_seconds: number;
    };
    expect(listed.present).toHaveLength(1);
    expect(listed.lease_seconds).toBe(30);
    const bad = await h.call("POST", `/api/workspaces/${ws}/presence`, {
      as: asEditor,
      body: { selection: "crm" },
    });
    expect(bad.status).toBe(422);
    expect((await h.call("POST", `/api/workspaces/${otherWs}/presence`, { as: asEditor, body: {} })).status).toBe(404);
    await watching.cancel();
  });
});

describe("shutdown", () => {
  test("draining ends every stream with closed/shutdown and refuses new ones with 503", async () => {
    const events = sseReader(await stream(ws, asOwner));
    expect((await events.next())?.event).toBe("ready");
    expect(live.events.openStreams()).toBeGreaterThan(0);
    live.events.drain();
    expect((await events.rest()).at(-1)).toEqual({ event: "closed", data: { reason: "shutdown" } });
    expect(live.events.openStreams()).toBe(0);
    expect((await stream(ws, asOwner)).status).toBe(503);
  });
});
