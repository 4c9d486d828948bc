import { createElement, type RequestContext } from "@ams/model";
import { testLogger } from "@ams/shared";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createControlApp } from "../../src/app.ts";
import { createLive, type Live } from "../../src/live/live.ts";
import { type Credentials, createHarness, type Harness, type TestUser } from "../support/harness.ts";
import { sseReader } from "../support/sse.ts";

/**
 * Two control replicas on one PostgreSQL database and one NATS server (the split shape's edge): each follows the
 * change log on its own LISTEN connection and delivers a change committed anywhere to its own streams; a presence
 * set on one replica reaches the streams of the other over NATS.
 */
const NATS_URL = process.env.TEST_NATS_URL ?? "nats://127.0.0.1:4222";
let h: Harness;
let first: Live;
let second: Live;
let secondApp: ReturnType<typeof createControlApp>;
let owner: TestUser;
let editor: TestUser;
let ws: string;
let orgId: string;
let asOwner: Credentials;
let asEditor: Credentials;

beforeAll(async () => {
  h = await createHarness({
    live: (database) => (first = createLive({ database, log: testLogger("live-1"), natsUrl: NATS_URL })),
  });
  second = createLive({ database: h.database, log: testLogger("live-2"), natsUrl: NATS_URL });
  secondApp = createControlApp({
    database: h.database,
    tokens: h.tokens,
    env: h.env,
    clock: h.clock.now,
    upstreams: { tenant: h.recorder },
    live: second,
    log: testLogger("control-2"),
  });
  [owner, editor] = await Promise.all([h.user("rp-owner"), h.user("rp-editor")]);
  orgId = (
    await h.org("Replicas", [
      [owner, "owner"],
      [editor, "editor"],
    ])
  ).id;
  ws = (await h.workspace(orgId, "Shared")).id;
  [asOwner, asEditor] = await Promise.all([h.session(owner), h.session(editor)]);
  while (first.shareState() !== "up" || second.shareState() !== "up") await new Promise((r) => setTimeout(r, 20));
}, 60_000);
afterAll(async () => {
  await Promise.all([first?.close(), second?.close()]);
  await h?.close();
});

/** The same request as the harness makes, to the second replica. */
function onSecond(path: string, as: Credentials) {
  const headers = new Headers();
  if (as && "cookies" in as)
    headers.set(
      "cookie",
      Object.entries(as.cookies)
        .map(([k, v]) => `${k}=${v}`)
        .join("; "),
    );
  return secondApp.request(`http://control.test${path}`, { headers });
}

test("a change committed once is delivered by both replicas; a presence set on one reaches the other", async () => {
  const one = sseReader(await h.call("GET", `/api/workspaces/${ws}/events`, { as: asOwner }));
  const two = sseReader(await onSecond(`/api/workspaces/${ws}/events`, asEditor));
  expect((await one.next())?.event).toBe("ready");
  expect((await two.next())?.event).toBe("ready");

  const ctx: RequestContext = {
    database: h.database,
    userId: owner.id,
    username: owner.username,
    organizationId: orgId,
    workspaceId: ws,
    role: "owner",
    platformAdmin: false,
    via: { kind: "mcp", name: "Assistant" },
  };
  await createElement({ ctx, input: { id: "both", name: "Both", type: "Node" } });
  const [a, b] = await Promise.all([one.nextOf("change"), two.nextOf("change")]);
  expect(a?.id).toBe(b?.id);
  expect(b?.data).toMatchObject({ via: { kind: "mcp", name: "Assistant" } });

  const set = await h.call("POST", `/api/workspaces/${ws}/presence`, {
    as: asOwner,
    body: { view_id: "v1", selection: ["both"] },
  });
  expect(set.status).toBe(200);
  let seen: { present: { user: { id: string }; selection: string[] }[] } | undefined;
  while (!seen?.present.some((p) => p.user.id === owner.id)) seen = (await two.nextOf("presence"))?.data as typeof seen;
  expect(seen?.present.find((p) => p.user.id === owner.id)?.selection).toEqual(["both"]);
  const listed = (await (await onSecond(`/api/workspaces/${ws}/presence`, asEditor)).json()) as {
    present: { user: { id: string } }[];
  };
  expect(listed.present.map((p) => p.user.id)).toEqual([owner.id]);
  await Promise.all([one.cancel(), two.cancel()]);
});
