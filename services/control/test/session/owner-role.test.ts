import { memberships, organizations, users } from "@ams/db";
import { must } from "@ams/shared/testing";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seedAccounts } from "../../src/seed/index.ts";
import { type Credentials, cookie, cookiesOf, createHarness, type Harness } from "../support/harness.ts";

/**
 * Security finding 10: in the session profile the seeded `contrib` is an admin of Archisurance, and an admin could
 * make themselves owner (200) and then demote or remove the owners. Only owners grant, change or remove the owner
 * role, and only owners invite owners.
 */
const ORIGIN = "http://control.test";
const COOKIE = "ams.session_token";
const PASSWORDS = {
  SEED_ADMIN_PASSWORD: "real-admin-password",
  SEED_USER_PASSWORD: "real-user-password",
  SEED_CONTRIB_PASSWORD: "real-contrib-password",
  SEED_ARCHI_PASSWORD: "real-archi-password",
};

let h: Harness;
let orgId: string;
const ids: Record<string, string> = {};
let contrib: Credentials;
let archi: Credentials;

async function session(username: string, password: string): Promise<Credentials> {
  const res = await h.call("POST", "/auth/sign-in/username", {
    body: { username, password },
    headers: { origin: ORIGIN },
  });
  expect(res.status).toBe(200);
  return { cookies: { [COOKIE]: cookie(cookiesOf(res), COOKIE) } };
}

const roleOf = async (username: string) => {
  const [row] = await h.db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.organizationId, orgId), eq(memberships.userId, must(ids[username], username))));
  return row?.role;
};

beforeAll(async () => {
  h = await createHarness({ env: { AUTH_MODE: "session", ...PASSWORDS } });
  await seedAccounts(h.database, h.env);
  const [org] = await h.db.select().from(organizations).where(eq(organizations.slug, "archisurance"));
  orgId = must(org, "the seeded organization").id;
  for (const u of await h.db.select({ id: users.id, username: users.username }).from(users)) ids[u.username] = u.id;
  contrib = await session("contrib", PASSWORDS.SEED_CONTRIB_PASSWORD);
  archi = await session("archi", PASSWORDS.SEED_ARCHI_PASSWORD);
}, 60_000);
afterAll(() => h.close());

const call = (as: Credentials, method: string, path: string, body?: unknown) =>
  h.call(method, `/api/organizations/${orgId}${path}`, { as, body, headers: { origin: ORIGIN } });

describe("an organization admin (seeded contrib) cannot reach the owner role", () => {
  test("setting their own role to owner is 403 problem+json, and the role stays admin", async () => {
    expect(await roleOf("contrib")).toBe("admin");
    const res = await call(contrib, "PUT", `/members/${ids.contrib}`, { role: "owner" });
    expect(res.status).toBe(403);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect((await res.json()).detail).toBe("Only an owner may grant, change or remove the owner role");
    expect(await roleOf("contrib")).toBe("admin");
  });

  test("demoting or removing an owner is 403; the owner stays owner", async () => {
    expect((await call(contrib, "PUT", `/members/${ids.archi}`, { role: "member" })).status).toBe(403);
    expect((await call(contrib, "DELETE", `/members/${ids.archi}`)).status).toBe(403);
    expect(await roleOf("archi")).toBe("owner");
  });

  test("inviting an owner or adding one by username is 403; nothing is issued", async () => {
    const invite = await call(contrib, "POST", "/invitations", {
      email: "new-owner@test.example",
      role: "owner",
      delivery_mode: "manual",
    });
    expect(invite.status).toBe(403);
    expect((await call(contrib, "GET", "/invitations")).status).toBe(200);
    const pending = (await (await call(contrib, "GET", "/invitations")).json()) as { email: string }[];
    expect(pending.map((i) => i.email)).not.toContain("new-owner@test.example");
    const newcomer = await h.user("newcomer");
    const add = await call(contrib, "POST", "/members", { username: newcomer.username, role: "owner" });
    expect(add.status).toBe(403);
    ids.newcomer = newcomer.id;
    expect(await roleOf("newcomer")).toBeUndefined();
  });

  test("what an admin may still do: invite a member and change a member's role", async () => {
    const invite = await call(contrib, "POST", "/invitations", {
      email: "new-member@test.example",
      role: "member",
      delivery_mode: "manual",
    });
    expect(invite.status).toBe(201);
    expect((await call(contrib, "PUT", `/members/${ids.user}`, { role: "admin" })).status).toBe(200);
    expect((await call(contrib, "PUT", `/members/${ids.user}`, { role: "member" })).status).toBe(200);
  });

  test("an owner grants the owner role, and an owner invites an owner", async () => {
    expect((await call(archi, "PUT", `/members/${ids.contrib}`, { role: "owner" })).status).toBe(200);
    expect(await roleOf("contrib")).toBe("owner");
    const invite = await call(archi, "POST", "/invitations", {
      email: "second-owner@test.example",
      role: "owner",
      delivery_mode: "manual",
    });
    expect(invite.status).toBe(201);
  });
});
