import { auditEvents, passwordResetTokens, verifications } from "@ams/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sha256Hex } from "../../src/auth/secrets.ts";
import { ORIGIN, type Profile, signIn } from "../audit/support.ts";
import { type Credentials, createHarness, type Harness, type TestUser } from "../support/harness.ts";
import { type SmtpTestServer, startSmtpServer } from "../support/smtp.ts";

/**
 * The platform admin's user administration in both profiles, on real PostgreSQL with a real SMTP server: every
 * endpoint, its refusals, and what the affected user notices (sign-in refused, sessions and tokens dead at once).
 */
describe.each<Profile>(["local", "session"])("platform users (AUTH_MODE=%s)", (profile) => {
  let h: Harness;
  let smtp: SmtpTestServer;
  let root: TestUser;
  let owner: TestUser;
  let rootAs: Credentials;
  let ownerAs: Credentials;
  let orgId: string;
  const memberRole = profile === "local" ? "editor" : "member";

  const call = (method: string, path: string, as: Credentials, body?: unknown) =>
    h.call(method, path, { as, body, headers: { origin: ORIGIN } });
  const signInStatus = async (username: string, password: string) => {
    const path = profile === "local" ? "/api/auth/local/login" : "/auth/sign-in/username";
    const res = await h.call("POST", path, { body: { username, password }, headers: { origin: ORIGIN } });
    return res.status;
  };
  const kindsAbout = async (userId: string) =>
    (await h.db.select().from(auditEvents).where(eq(auditEvents.targetUserId, userId)))
      .filter((e) => e.kind.startsWith("user."))
      .map((e) => ({ kind: e.kind, actor: e.actorName }));
  /** A user with a browser session and a personal API token in the organization. */
  async function userWithCredentials(username: string) {
    const user = await h.user(username);
    expect(
      (await call("POST", `/api/organizations/${orgId}/members`, ownerAs, { username, role: memberRole })).status,
    ).toBe(201);
    const session = await signIn(h, profile, user);
    const created = await call("POST", "/api/settings/api-tokens", session, { organization_id: orgId, name: "ci" });
    expect(created.status).toBe(201);
    const token: Credentials = { bearer: (await created.json()).token };
    expect((await h.call("GET", "/api/me", { as: session })).status).toBe(200);
    expect((await h.call("GET", "/api/me", { as: token })).status).toBe(200);
    return { user, session, token };
  }

  beforeAll(async () => {
    smtp = await startSmtpServer();
    h = await createHarness({ env: { AUTH_MODE: profile, SMTP_URL: smtp.url } });
    root = await h.user("root", { platformAdmin: true });
    owner = await h.user("owena");
    orgId = (await h.org("Users Org", [[owner, "owner"]])).id;
    rootAs = await signIn(h, profile, root);
    ownerAs = await signIn(h, profile, owner);
  }, 60_000);
  afterAll(async () => {
    await h.close();
    await smtp.stop();
  });

  test("every user route is the platform admin's: 403 to an organization owner, 401 without credentials", async () => {
    const routes: [string, string, unknown?][] = [
      ["GET", "/api/platform/users"],
      ["POST", "/api/platform/users", { username: "zed", name: "Zed", email: "zed@test.example" }],
      ["PUT", `/api/platform/users/${owner.id}`, { name: "X" }],
      ["POST", `/api/platform/users/${owner.id}/reset-password`],
      ["DELETE", `/api/platform/users/${owner.id}`],
    ];
    for (const [method, path, body] of routes) {
      expect((await call(method, path, ownerAs, body)).status, `${method} ${path}`).toBe(403);
      expect((await h.call(method, path, { body })).status, `${method} ${path}`).toBe(401);
    }
  });

  test("creating without a password answers and mails a one-time set-password link valid 24 hours", async () => {
    const before = smtp.messages.length;
    const res = await call("POST", "/api/platform/users", rootAs, {
      username: "Newcomer",
      name: "Nora Newcomer",
      email: "Nora@Test.Example",
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.user).toMatchObject({
      username: "newcomer",
      name: "Nora Newcomer",
      email: "nora@test.example",
      role: "user",
      disabled: false,
      must_change_password: false,
      last_sign_in_at: null,
      organizations: [],
    });
    const link = body.set_password_link;
    expect(link.email_sent).toBe(true);
    expect(link.url.startsWith(`${h.env.PUBLIC_URL.replace(/\/$/, "")}/reset-password#token=`)).toBe(true);
    expect(link.url).toMatch(/#token=[A-Za-z0-9_-]{43}$/);
    const hours = (new Date(link.expires_at).getTime() - h.clock.now().getTime()) / 3_600_000;
    expect(hours).toBeCloseTo(24, 1);
    const mail = await smtp.mail(before);
    expect(mail.to).toEqual(["nora@test.example"]);
    expect(mail.text).toContain(link.url);
    const token = link.url.split("#token=")[1];
    if (profile === "local") {
      const [row] = await h.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, body.user.id));
      expect(row).toMatchObject({ tokenHash: sha256Hex(token), purpose: "set", usedAt: null });
      expect(JSON.stringify(row)).not.toContain(token);
    } else {
      // better-auth's own reset token, so its reset endpoint redeems the link.
      const [row] = await h.db.select().from(verifications).where(eq(verifications.value, body.user.id));
      expect(row?.expiresAt.toISOString()).toBe(link.expires_at);
    }
    // Nobody knows a password of the account until the link is used.
    expect(await signInStatus("newcomer", "anything-at-all-123")).toBe(401);
    expect(await kindsAbout(body.user.id)).toEqual([{ kind: "user.created", actor: "root" }]);
  });

  test("the set-password link (read from the e-mail) lets the new user choose a password once, then sign in", async () => {
    const before = smtp.messages.length;
    const res = await call("POST", "/api/platform/users", rootAs, {
      username: "linkuser",
      name: "Link User",
      email: "linkuser@test.example",
    });
    expect(res.status).toBe(201);
    const mail = await smtp.mail(before);
    const url = /(https?:\/\/\S+#token=[A-Za-z0-9_-]+)/.exec(mail.text)?.[1] ?? "";
    const token = url.split("#token=")[1] ?? "";
    const redeem = () =>
      profile === "local"
        ? h.call("POST", "/api/auth/local/reset-password", { body: { token, password: "chosen-password-789" } })
        : h.call("POST", "/auth/reset-password", {
            body: { token, newPassword: "chosen-password-789" },
            headers: { origin: ORIGIN },
          });
    expect((await redeem()).status).toBeLessThan(300);
    expect(await signInStatus("linkuser", "chosen-password-789")).toBe(200);
    expect((await redeem()).status).toBeGreaterThanOrEqual(400);
  });

  test("creating with a password: the user signs in with it and must change it first", async () => {
    const res = await call("POST", "/api/platform/users", rootAs, {
      username: "firstpw",
      name: "First Password",
      email: "firstpw@test.example",
      password: "first-password-123",
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.set_password_link).toBeNull();
    expect(body.user.must_change_password).toBe(true);
    const session = await signIn(h, profile, { id: body.user.id, username: "firstpw", password: "first-password-123" });
    const me = await (await h.call("GET", "/api/me", { as: session })).json();
    expect(me.must_change_password).toBe(true);
  });

  test("bad input answers 422 with the field paths; a taken username or address 409", async () => {
    const bad = await call("POST", "/api/platform/users", rootAs, {
      username: "has space",
      name: "",
      email: "not-an-address",
      password: "short",
    });
    expect(bad.status).toBe(422);
    const fields = ((await bad.json()).errors as { path: string }[]).map((e) => e.path).sort();
    expect(fields).toEqual(["email", "name", "password", "username"]);
    const empty = await call("PUT", `/api/platform/users/${owner.id}`, rootAs, {});
    expect(empty.status).toBe(422);
    const wrongType = await call("PUT", `/api/platform/users/${owner.id}`, rootAs, { disabled: "yes" });
    expect(wrongType.status).toBe(422);
    expect(JSON.stringify(await wrongType.json())).toContain("disabled");
    const taken = await call("POST", "/api/platform/users", rootAs, {
      username: "OWENA",
      name: "Dup",
      email: "dup@test.example",
    });
    expect(taken.status).toBe(409);
    expect((await taken.json()).detail).toContain("owena");
    const takenEmail = await call("PUT", `/api/platform/users/${owner.id}`, rootAs, { email: "root@test.example" });
    expect(takenEmail.status).toBe(409);
    expect((await call("PUT", "/api/platform/users/nobody", rootAs, { name: "X" })).status).toBe(404);
  });

  test("lists with search and paging: username, name, e-mail, role, disabled, last sign-in, organizations", async () => {
    const all = await (await call("GET", "/api/platform/users?limit=200", rootAs)).json();
    expect(all.total).toBe(all.items.length);
    const usernames = all.items.map((u: { username: string }) => u.username);
    expect(usernames).toEqual([...usernames].sort());
    const found = await (await call("GET", "/api/platform/users?q=OWEN", rootAs)).json();
    expect(found.total).toBe(1);
    expect(found.items[0]).toMatchObject({
      id: owner.id,
      username: "owena",
      email: "owena@test.example",
      role: "user",
      disabled: false,
      organizations: [{ id: orgId, name: "Users Org", role: "owner" }],
    });
    expect(found.items[0].last_sign_in_at).not.toBeNull();
    const rootRow = all.items.find((u: { username: string }) => u.username === "root");
    expect(rootRow.role).toBe("platform_admin");
    const literal = await (await call("GET", "/api/platform/users?q=%25", rootAs)).json();
    expect(literal.total).toBe(0);
    const page1 = await (await call("GET", "/api/platform/users?limit=2&offset=0", rootAs)).json();
    const page2 = await (await call("GET", "/api/platform/users?limit=2&offset=2", rootAs)).json();
    expect(page1.items.map((u: { id: string }) => u.id)).toEqual(
      all.items.slice(0, 2).map((u: { id: string }) => u.id),
    );
    expect(page2.items.map((u: { id: string }) => u.id)).toEqual(
      all.items.slice(2, 4).map((u: { id: string }) => u.id),
    );
    expect(page2.total).toBe(all.total);
    expect((await call("GET", "/api/platform/users?limit=0", rootAs)).status).toBe(422);
  });

  test("disabling: sign-in is refused and the session and API token stop at the next request; enabling lets sign-in back", async () => {
    const { user, session, token } = await userWithCredentials("dora");
    const res = await call("PUT", `/api/platform/users/${user.id}`, rootAs, { disabled: true });
    expect(res.status).toBe(200);
    expect((await res.json()).disabled).toBe(true);
    expect((await h.call("GET", "/api/me", { as: session })).status).toBe(401);
    expect((await h.call("GET", "/api/me", { as: token })).status).toBe(401);
    expect(await signInStatus("dora", user.password)).toBe(403);
    const enabled = await call("PUT", `/api/platform/users/${user.id}`, rootAs, { disabled: false, name: "Dora D." });
    expect(await enabled.json()).toMatchObject({ disabled: false, name: "Dora D." });
    // The API token was only suspended with its owner; the ended session stays ended.
    expect((await h.call("GET", "/api/me", { as: token })).status).toBe(200);
    expect((await h.call("GET", "/api/me", { as: session })).status).toBe(401);
    expect(await signInStatus("dora", user.password)).toBe(200);
    expect(await kindsAbout(user.id)).toEqual(
      expect.arrayContaining([
        { kind: "user.disabled", actor: "root" },
        { kind: "user.enabled", actor: "root" },
        { kind: "user.updated", actor: "root" },
      ]),
    );
    expect((await call("PUT", `/api/platform/users/${root.id}`, rootAs, { disabled: true })).status).toBe(409);
  });

  test("a password reset ends every session and token of the user and answers and mails a new link", async () => {
    const { user, session, token } = await userWithCredentials("rhea");
    const before = smtp.messages.length;
    const res = await call("POST", `/api/platform/users/${user.id}/reset-password`, rootAs);
    expect(res.status).toBe(200);
    const link = (await res.json()).set_password_link;
    expect(link).toMatchObject({ email_sent: true });
    expect((await smtp.mail(before)).text).toContain(link.url);
    expect((await h.call("GET", "/api/me", { as: session })).status).toBe(401);
    expect((await h.call("GET", "/api/me", { as: token })).status).toBe(401);
    expect(await signInStatus("rhea", user.password)).toBe(401);
    expect(await kindsAbout(user.id)).toContainEqual({ kind: "user.password_reset_by_admin", actor: "root" });
  });

  test("deleting: 409 naming the organization while the user is its last owner, then gone with their memberships", async () => {
    const refused = await call("DELETE", `/api/platform/users/${owner.id}`, rootAs);
    expect(refused.status).toBe(409);
    expect((await refused.json()).detail).toContain("'Users Org'");
    const heir = await h.user("heir");
    expect(
      (await call("POST", `/api/organizations/${orgId}/members`, ownerAs, { username: "heir", role: "owner" })).status,
    ).toBe(201);
    expect((await call("DELETE", `/api/platform/users/${owner.id}`, rootAs)).status).toBe(204);
    expect((await h.call("GET", "/api/me", { as: ownerAs })).status).toBe(401);
    const members = await (await call("GET", `/api/platform/organizations/${orgId}/members`, rootAs)).json();
    const ids = members.map((m: { userId: string }) => m.userId);
    expect(ids).toContain(heir.id);
    expect(ids).not.toContain(owner.id);
    expect((await (await call("GET", "/api/platform/users?q=owena", rootAs)).json()).total).toBe(0);
    expect(await kindsAbout(owner.id)).toContainEqual({ kind: "user.deleted", actor: "root" });
    expect((await call("DELETE", `/api/platform/users/${owner.id}`, rootAs)).status).toBe(404);
    expect((await call("DELETE", `/api/platform/users/${root.id}`, rootAs)).status).toBe(409);
  });
});
