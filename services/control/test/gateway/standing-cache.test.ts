import { memberships, teamMembers, teams, workspaceTeams } from "@ams/db";
import { silentLogger } from "@ams/shared";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createControlApp } from "../../src/app.ts";
import { type Credentials, createHarness, type Harness, type TestUser } from "../support/harness.ts";

/**
 * Issue 28: each control replica remembers the standings it resolved (organization, role, teams, visibility) and
 * believes them only while the user's access counter is unchanged. On two replicas of one real PostgreSQL database,
 * replica B serves a member's writes without pause while replica A (or the database directly) demotes, removes,
 * suspends or takes the workspace away; every write that started after the change's commit was answered must be
 * refused. Only writes that started before it may have passed.
 */
let h: Harness;
let replica: ReturnType<typeof createControlApp>;

beforeAll(async () => {
  h = await createHarness();
  replica = createControlApp({
    database: h.database,
    tokens: h.tokens,
    env: h.env,
    clock: h.clock.now,
    upstreams: { tenant: h.recorder },
    log: silentLogger,
  });
});
afterAll(() => h?.close());

const cookieHeader = (as: Credentials) =>
  as && "cookies" in as
    ? Object.entries(as.cookies)
        .map(([k, v]) => `${k}=${v}`)
        .join("; ")
    : "";

type Sent = { started: number; status: number };

/** One write on replica B: a new element, or a version of the given workspace (forwarded when allowed). */
const writeOnReplica = async (as: Credentials, workspaceId: string | null): Promise<Sent> => {
  const started = performance.now();
  const res = await replica.request(
    workspaceId ? `http://control.test/api/workspaces/${workspaceId}/versions` : "http://control.test/api/elements",
    {
      method: "POST",
      headers: {
        ...(as && "bearer" in as
          ? { authorization: `Bearer ${as.bearer}` }
          : { cookie: cookieHeader(as), origin: "http://control.test" }),
        "content-type": "application/json",
      },
      body: JSON.stringify({ type: "BusinessActor", name: "Writer" }),
    },
  );
  await res.arrayBuffer();
  return { started, status: res.status };
};

/**
 * Writers on replica B, `parallel` at a time, until `after` writes have started after the change was answered; the
 * change runs once `before` writes passed (so B has remembered the member's standing). Returns every write with
 * when the change was sent and when its answer arrived.
 */
async function underWrites(
  as: Credentials,
  workspaceId: string | null,
  change: () => Promise<void>,
  { parallel = 4, before = 20, after = 60 } = {},
) {
  const sent: Sent[] = [];
  let changeSent = Number.POSITIVE_INFINITY;
  let changed = Number.POSITIVE_INFINITY;
  const startedAfter = () => sent.filter((s) => s.started > changed).length;
  const writer = async () => {
    while (startedAfter() < after) sent.push(await writeOnReplica(as, workspaceId));
  };
  const changer = async () => {
    while (sent.filter((s) => s.status === 200).length < before) await new Promise((r) => setTimeout(r, 1));
    changeSent = performance.now();
    await change();
    changed = performance.now();
  };
  await Promise.all([changer(), ...Array.from({ length: parallel }, writer)]);
  return {
    allowedBefore: sent.filter((s) => s.started < changeSent && s.status === 200).length,
    allowedAfter: sent.filter((s) => s.started > changed && s.status === 200).length,
    refusedAfter: sent.filter((s) => s.started > changed && s.status !== 200).map((s) => s.status),
  };
}

async function memberOf(name: string) {
  const owner = await h.user(`${name}-owner`);
  const member = await h.user(`${name}-member`);
  const org = await h.org(name, [
    [owner, "owner"],
    [member, "editor"],
  ]);
  const workspace = await h.workspace(org.id);
  await h.select(member.id, org.id, workspace.id);
  return {
    owner,
    member,
    org,
    workspace,
    memberSession: await h.session(member),
    ownerSession: await h.session(owner),
  };
}

const statusesOf = (refused: number[]) => [...new Set(refused)];

describe("a change of standing takes effect at once on every replica", () => {
  test("demoted on replica A: no write on replica B that started after the change is allowed", async () => {
    const { org, member, memberSession, ownerSession } = await memberOf("demote");
    const run = await underWrites(memberSession, null, async () => {
      const res = await h.call("PUT", `/api/organizations/${org.id}/members/${member.id}`, {
        as: ownerSession,
        body: { role: "viewer" },
      });
      expect(res.status).toBe(200);
    });
    expect(run.allowedBefore).toBeGreaterThanOrEqual(20);
    expect(run.allowedAfter).toBe(0);
    expect(statusesOf(run.refusedAfter)).toEqual([403]);
  });

  test("removed on replica A: no write on replica B that started after the change is allowed", async () => {
    const { org, member, memberSession, ownerSession, workspace } = await memberOf("remove");
    const run = await underWrites(memberSession, workspace.id, async () => {
      const res = await h.call("DELETE", `/api/organizations/${org.id}/members/${member.id}`, { as: ownerSession });
      expect(res.status).toBe(204);
    });
    expect(run.allowedBefore).toBeGreaterThanOrEqual(20);
    expect(run.allowedAfter).toBe(0);
    expect(statusesOf(run.refusedAfter)).toEqual([404]);
  });

  test("suspended by the platform admin on replica A: no write on replica B after the change is allowed", async () => {
    const { org, memberSession } = await memberOf("suspend");
    const admin = await h.session(await h.user("suspend-admin", { platformAdmin: true }));
    const run = await underWrites(memberSession, null, async () => {
      const res = await h.call("PUT", `/api/platform/organizations/${org.id}`, { as: admin, body: { enabled: false } });
      expect(res.status).toBe(200);
    });
    expect(run.allowedBefore).toBeGreaterThanOrEqual(20);
    expect(run.allowedAfter).toBe(0);
    expect(statusesOf(run.refusedAfter)).toEqual([403]);
  });

  test("taken out of the workspace's team in the database directly: replica B hides the workspace at once", async () => {
    const { org, member, memberSession, workspace } = await memberOf("team");
    const [team] = await h.db.insert(teams).values({ organizationId: org.id, name: "Writers" }).returning();
    const teamId = team!.id;
    await h.db.insert(teamMembers).values({ teamId, userId: member.id });
    await h.db.insert(workspaceTeams).values({ workspaceId: workspace.id, teamId });
    const run = await underWrites(memberSession, workspace.id, async () => {
      await h.db.delete(teamMembers).where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, member.id)));
    });
    expect(run.allowedBefore).toBeGreaterThanOrEqual(20);
    expect(run.allowedAfter).toBe(0);
    expect(statusesOf(run.refusedAfter)).toEqual([404]);
  });

  test("an API token's owner demoted on replica A, then the token revoked: replica B refuses at once each time", async () => {
    const { org, member, memberSession, ownerSession } = await memberOf("token");
    const created = await h.call("POST", "/api/settings/api-tokens", {
      as: memberSession,
      body: { name: "script", organization_id: org.id },
    });
    expect(created.status).toBe(201);
    const { id, token } = (await created.json()) as { id: string; token: string };
    const demoted = await underWrites({ bearer: token }, null, async () => {
      const res = await h.call("PUT", `/api/organizations/${org.id}/members/${member.id}`, {
        as: ownerSession,
        body: { role: "viewer" },
      });
      expect(res.status).toBe(200);
    });
    expect(demoted.allowedBefore).toBeGreaterThanOrEqual(20);
    expect(demoted.allowedAfter).toBe(0);
    expect(statusesOf(demoted.refusedAfter)).toEqual([403]);

    await h.db
      .update(memberships)
      .set({ role: "editor" })
      .where(and(eq(memberships.organizationId, org.id), eq(memberships.userId, member.id)));
    const revoked = await underWrites({ bearer: token }, null, async () => {
      expect((await h.call("DELETE", `/api/settings/api-tokens/${id}`, { as: memberSession })).status).toBe(204);
    });
    expect(revoked.allowedBefore).toBeGreaterThanOrEqual(20);
    expect(revoked.allowedAfter).toBe(0);
    expect(statusesOf(revoked.refusedAfter)).toEqual([401]);
  });

  test("a change elsewhere leaves the standing as it was: promoted back, the member writes again on B", async () => {
    const { org, member, memberSession }: { org: { id: string }; member: TestUser; memberSession: Credentials } =
      await memberOf("promote");
    await h.db
      .update(memberships)
      .set({ role: "viewer" })
      .where(and(eq(memberships.organizationId, org.id), eq(memberships.userId, member.id)));
    expect((await writeOnReplica(memberSession, null)).status).toBe(403);
    await h.db
      .update(memberships)
      .set({ role: "editor" })
      .where(and(eq(memberships.organizationId, org.id), eq(memberships.userId, member.id)));
    expect((await writeOnReplica(memberSession, null)).status).toBe(200);
  });
});
