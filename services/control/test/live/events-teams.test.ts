import { type ChangeEvent, createElement, type RequestContext } from "@ams/model";
import { testLogger } from "@ams/shared";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createLive, type Live } from "../../src/live/live.ts";
import { type Credentials, cookiesOf, createHarness, type Harness, type TestUser } from "../support/harness.ts";
import { sseReader } from "../support/sse.ts";

/**
 * The session profile's teams and the events stream: a workspace assigned to a team streams to its members only
 * (another member of the organization gets 404 and never an event), and moving the workspace out of the member's
 * team ends their stream.
 */
let h: Harness;
let live: Live;
let owner: TestUser;
let inTeam: TestUser;
let outside: TestUser;
let orgId: string;
const ORIGIN = "http://control.test";
const COOKIE = "ams.session_token";

beforeAll(async () => {
  h = await createHarness({
    env: { AUTH_MODE: "session" },
    live: (database) => (live = createLive({ database, log: testLogger("live"), recheckMs: 500 })),
  });
  [owner, inTeam, outside] = await Promise.all([h.user("tm-owner"), h.user("tm-in"), h.user("tm-out")]);
  orgId = (
    await h.org("Teams Live", [
      [owner, "owner"],
      [inTeam, "member"],
      [outside, "member"],
    ])
  ).id;
}, 60_000);
afterAll(async () => {
  await live?.close();
  await h?.close();
});

async function session(user: TestUser): Promise<Credentials> {
  const res = await h.call("POST", "/auth/sign-in/username", {
    body: { username: user.username, password: user.password },
    headers: { origin: ORIGIN },
  });
  expect(res.status).toBe(200);
  return { cookies: { [COOKIE]: cookiesOf(res)[COOKIE] ?? "" } };
}

const write = async (as: Credentials, method: string, path: string, body?: unknown) => {
  const res = await h.call(method, path, { as, body, headers: { origin: ORIGIN } });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return res.status === 204 ? null : ((await res.json()) as { id: string });
};

test("a team's workspace streams to its members only; moved out of their team, their stream closes", async () => {
  const [o, member, other] = await Promise.all([session(owner), session(inTeam), session(outside)]);
  const core = await write(o, "POST", `/api/organizations/${orgId}/teams`, { name: "Core" });
  const rest = await write(o, "POST", `/api/organizations/${orgId}/teams`, { name: "Rest" });
  await write(o, "PUT", `/api/organizations/${orgId}/teams/${core?.id}/members/${inTeam.id}`);
  const secret = (await h.workspace(orgId, "Secret")).id;
  await write(o, "PUT", `/api/workspaces/${secret}/teams`, { team_ids: [core?.id] });

  expect((await h.call("GET", `/api/workspaces/${secret}/events`, { as: other })).status).toBe(404);
  expect((await h.call("GET", `/api/workspaces/${secret}/presence`, { as: other })).status).toBe(404);
  const events = sseReader(await h.call("GET", `/api/workspaces/${secret}/events`, { as: member }));
  expect((await events.next())?.event).toBe("ready");

  const ctx: RequestContext = {
    database: h.database,
    userId: owner.id,
    username: owner.username,
    organizationId: orgId,
    workspaceId: secret,
    role: "owner",
    platformAdmin: false,
    via: { kind: "browser", name: null },
  };
  await createElement({ ctx, input: { id: "secret-plan", name: "Secret plan", type: "Goal" } });
  expect((await events.nextOf("change"))?.data as ChangeEvent).toMatchObject({
    objects: [{ id: "secret-plan", op: "create" }],
  });

  await write(o, "PUT", `/api/workspaces/${secret}/teams`, { team_ids: [rest?.id] });
  expect((await events.rest()).at(-1)).toEqual({ event: "closed", data: { reason: "access" } });
});
