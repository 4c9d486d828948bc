import { auditEvents } from "@ams/db";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { purgeAuditEvents } from "../../src/audit/purge.ts";
import { recordAuditEvent } from "../../src/audit/record.ts";
import { type Credentials, createHarness, type Harness, type TestUser } from "../support/harness.ts";

/** The audit trail of the local profile's existing flows: sign-in, password change, memberships (real PostgreSQL). */
let h: Harness;
let owner: TestUser;
let colleague: TestUser;
let ownerSession: Credentials;
let orgId: string;

const eventsOf = (kind: string) =>
  h.db.select().from(auditEvents).where(eq(auditEvents.kind, kind)).orderBy(asc(auditEvents.id));

beforeAll(async () => {
  h = await createHarness();
  owner = await h.user("aurelia");
  colleague = await h.user("bruno");
  orgId = (await h.org("Audited", [[owner, "owner"]])).id;
  ownerSession = await h.session(owner);
});
afterAll(() => h.close());

describe("audit events of the existing flows", () => {
  test("a sign-in records success with the client address, a wrong password and an unknown name record failures", async () => {
    await h.login(owner, { ip: "203.0.113.7" });
    await h.login(colleague, { password: "wrong-password-123", ip: "203.0.113.8" });
    await h.login({ ...colleague, username: "nobody-here" }, { ip: "203.0.113.9" });
    const ok = (await eventsOf("sign_in.succeeded")).find((e) => e.address === "203.0.113.7");
    expect(ok).toMatchObject({ actorId: owner.id, actorName: "aurelia", targetUserId: owner.id });
    const failed = await eventsOf("sign_in.failed");
    expect(failed.find((e) => e.address === "203.0.113.8")).toMatchObject({
      actorId: null,
      targetUserId: colleague.id,
      details: { username: "bruno", reason: "invalid_credentials", method: "password" },
    });
    expect(failed.find((e) => e.address === "203.0.113.9")).toMatchObject({
      targetUserId: null,
      details: { username: "nobody-here", reason: "invalid_credentials" },
    });
  });

  test("adding a member, changing the role and removing record who, whom, where and the roles", async () => {
    const headers = { "x-forwarded-for": "198.51.100.4" };
    const base = `/api/organizations/${orgId}/members`;
    expect(
      (await h.call("POST", base, { as: ownerSession, headers, body: { username: "bruno", role: "viewer" } })).status,
    ).toBe(201);
    expect(
      (await h.call("PUT", `${base}/${colleague.id}`, { as: ownerSession, headers, body: { role: "editor" } })).status,
    ).toBe(200);
    expect((await h.call("DELETE", `${base}/${colleague.id}`, { as: ownerSession, headers })).status).toBe(204);
    const common = { actorId: owner.id, targetUserId: colleague.id, organizationId: orgId, address: "198.51.100.4" };
    expect(await eventsOf("member.added")).toEqual([
      expect.objectContaining({ ...common, details: { role: "viewer" } }),
    ]);
    expect(await eventsOf("member.role_changed")).toEqual([
      expect.objectContaining({ ...common, details: { from: "viewer", to: "editor" } }),
    ]);
    expect(await eventsOf("member.removed")).toEqual([
      expect.objectContaining({ ...common, details: { role: "editor" } }),
    ]);
  });

  test("a refused change (the last owner) records nothing", async () => {
    const res = await h.call("DELETE", `/api/organizations/${orgId}/members/${owner.id}`, { as: ownerSession });
    expect(res.status).toBe(409);
    expect((await eventsOf("member.removed")).filter((e) => e.targetUserId === owner.id)).toEqual([]);
  });

  test("a password change is recorded", async () => {
    const session = await h.session(colleague);
    const res = await h.call("POST", "/api/auth/change-password", {
      as: session,
      headers: { "x-forwarded-for": "192.0.2.10" },
      body: { current_password: colleague.password, new_password: "bruno-new-password-456" },
    });
    expect(res.status).toBe(204);
    expect(await eventsOf("password.changed")).toEqual([
      expect.objectContaining({ actorId: colleague.id, targetUserId: colleague.id, address: "192.0.2.10" }),
    ]);
    colleague.password = "bruno-new-password-456";
  });

  test("the purge deletes exactly the events older than the retention", async () => {
    const now = new Date("2026-06-01T00:00:00Z");
    const day = 24 * 3600 * 1000;
    await recordAuditEvent(h.db, {
      kind: "user.updated",
      actor: null,
      address: null,
      at: new Date(now.getTime() - 31 * day),
    });
    await recordAuditEvent(h.db, {
      kind: "user.enabled",
      actor: null,
      address: null,
      at: new Date(now.getTime() - 29 * day),
    });
    const before = (await h.db.select().from(auditEvents)).length;
    expect(await purgeAuditEvents(h.database, 30, now)).toBeGreaterThanOrEqual(1);
    const kinds = (await h.db.select().from(auditEvents)).map((e) => e.kind);
    expect(kinds).not.toContain("user.updated");
    expect(kinds).toContain("user.enabled");
    expect(kinds.length).toBe(before - 1);
  });
});
