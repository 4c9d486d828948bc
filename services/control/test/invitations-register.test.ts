import { accounts, auditEvents, invitations, memberships, users } from "@ams/db";
import { must } from "@ams/shared/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Credentials, createHarness, type Harness, type TestUser } from "./support/harness.ts";
import { ORIGIN, PROFILES, type Profile, sessionOf, signIn } from "./support/profiles.ts";
import { type SmtpTestServer, startSmtpServer } from "./support/smtp.ts";

/**
 * Accepting an invitation creates the account, in both profiles: the link from the delivered e-mail is the proof
 * of the address; the account (verified for that address), the accept and the membership are one transaction, and
 * the person is signed in with the profile's own session.
 */
/** The harness's own origin: links in the e-mail point at it, and the session cookie has no __Secure- prefix. */
const PUBLIC_URL = ORIGIN;
const PASSWORD = "a-long-enough-password";

describe.each(PROFILES)("registering from an invitation ($name profile)", (profile: Profile) => {
  let h: Harness;
  let smtp: SmtpTestServer;
  let owner: TestUser;
  let ownerSession: Credentials;
  let orgId: string;
  let n = 0;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    h = await createHarness({ env: { ...profile.env, PUBLIC_URL, SMTP_URL: smtp.url } });
    owner = await h.user(`reg-owner-${profile.name}`);
    orgId = (await h.org(`Registry ${profile.name}`, [[owner, "owner"]])).id;
    ownerSession = sessionOf(profile, await signIn(h, profile, owner.username, owner.password));
  }, 60_000);
  afterAll(async () => {
    await h.close();
    await smtp.stop();
  });

  /** Invites a fresh address by e-mail and answers the link read from the delivered message. */
  async function invitedLink(email = `invitee-${++n}@example.test`, hasAccount = false) {
    const before = smtp.messages.length;
    const res = await h.call("POST", `/api/organizations/${orgId}/invitations`, {
      as: ownerSession,
      headers: { origin: ORIGIN },
      body: { email, role: profile.invitedRole, delivery_mode: "email" },
    });
    expect(res.status).toBe(201);
    const mail = await smtp.mail(before);
    expect(mail.to).toEqual([email]);
    if (!hasAccount) expect(mail.text).toContain("Create your account");
    const link = must(new RegExp(`${PUBLIC_URL}/invitations/([A-Za-z0-9_-]{43})`).exec(mail.text)?.[1], "the link");
    return { token: link, email };
  }

  let clients = 0;
  const register = (token: string, body: Record<string, unknown>, ip = `10.50.0.${++clients % 250}`) =>
    h.call("POST", `/api/invitations/${token}/register`, {
      body,
      headers: { origin: ORIGIN, "x-forwarded-for": ip },
    });

  test("anonymous preview and accept still answer 401", async () => {
    const { token } = await invitedLink();
    expect((await h.call("GET", `/api/invitations/${token}`)).status).toBe(401);
    expect((await h.call("POST", `/api/invitations/${token}/accept`)).status).toBe(401);
  });

  test("creates the verified account, accepts and signs in: /api/me shows the membership with the invited role", async () => {
    const { token, email } = await invitedLink();
    const res = await register(token, { username: `New.Person${n}`, name: "New Person", password: PASSWORD });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({
      user: { username: `new.person${n}`, name: "New Person", email },
      organization: { id: orgId },
      role: profile.invitedRole,
    });
    const me = await h.call("GET", "/api/me", { as: sessionOf(profile, res) });
    expect(me.status).toBe(200);
    const profileBody = await me.json();
    expect(profileBody).toMatchObject({ email, email_verified: true, username: `new.person${n}` });
    expect(profileBody.memberships).toEqual([
      expect.objectContaining({ organization_id: orgId, role: profile.invitedRole }),
    ]);
    // The password is stored as argon2id, never as given; the new account signs in with it.
    const [credential] = await h.db.select().from(accounts).where(eq(accounts.userId, body.user.id));
    expect(credential?.password).toMatch(/^\$argon2id\$/);
    expect((await signIn(h, profile, `new.person${n}`, PASSWORD)).status).toBe(200);
    const [claimed] = await h.db.select().from(invitations).where(eq(invitations.acceptedBy, body.user.id));
    expect(claimed?.acceptedAt).not.toBeNull();
    // The audit trail has the account's creation and the acceptance, from the client's address.
    const events = await h.db.select().from(auditEvents).where(eq(auditEvents.targetUserId, body.user.id));
    const recorded = events.filter((e) => !e.kind.startsWith("sign_in."));
    expect(recorded.map((e) => [e.kind, e.organizationId ?? null, e.address]).sort()).toEqual([
      ["invitation.accepted", orgId, expect.stringMatching(/^10\.50\.0\./)],
      ["user.created", null, expect.stringMatching(/^10\.50\.0\./)],
    ]);
  });

  test("the link works once: a second registration answers 410 as accept does, and creates nothing", async () => {
    const { token } = await invitedLink();
    expect((await register(token, { username: `once${n}`, name: "Once", password: PASSWORD })).status).toBe(201);
    const again = await register(token, { username: `twice${n}`, name: "Twice", password: PASSWORD });
    expect(again.status).toBe(410);
    expect((await again.json()).detail).toMatch(/already been accepted/);
    expect(
      await h.db
        .select()
        .from(users)
        .where(eq(users.username, `twice${n}`)),
    ).toEqual([]);
  });

  test("two registrations with one link at the same moment: exactly one account and one membership", async () => {
    const { token, email } = await invitedLink();
    const results = await Promise.all(
      [1, 2, 3].map((i) => register(token, { username: `racer${n}-${i}`, name: "Racer", password: PASSWORD })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses[0]).toBe(201);
    expect(statuses.slice(1).every((s) => s === 410 || s === 409)).toBe(true);
    const created = await h.db.select().from(users).where(eq(users.email, email));
    expect(created).toHaveLength(1);
    const joined = await h.db
      .select()
      .from(memberships)
      .where(eq(memberships.userId, must(created[0], "user").id));
    expect(joined).toHaveLength(1);
  });

  test("a taken username is 409 naming the field; the link still works afterwards", async () => {
    const { token } = await invitedLink();
    const taken = await register(token, { username: owner.username.toUpperCase(), name: "X", password: PASSWORD });
    expect(taken.status).toBe(409);
    const problem = await taken.json();
    expect(problem.errors).toEqual([{ path: "username", message: "is taken" }]);
    expect((await register(token, { username: `free${n}`, name: "Free", password: PASSWORD })).status).toBe(201);
  });

  test("an address that has an account already is told to sign in and accept (409)", async () => {
    const existing = await h.user(`has-account-${profile.name}`);
    const { token } = await invitedLink(`${existing.username}@test.example`, true);
    const res = await register(token, { username: `dup${n}`, name: "Dup", password: PASSWORD });
    expect(res.status).toBe(409);
    expect((await res.json()).detail).toMatch(/sign in with it/);
  });

  test("the password policy of a password change (422 naming the field); bad usernames; unknown link 404", async () => {
    const { token } = await invitedLink();
    const short = await register(token, { username: `short${n}`, name: "S", password: "short" });
    expect(short.status).toBe(422);
    expect((await short.json()).errors[0].path).toBe("password");
    const long = await register(token, { username: `long${n}`, name: "L", password: "x".repeat(257) });
    expect(long.status).toBe(422);
    const spaces = await register(token, { username: "has spaces", name: "S", password: PASSWORD });
    expect((await spaces.json()).errors[0].path).toBe("username");
    const unknown = await register("A".repeat(43), { username: `u${n}`, name: "U", password: PASSWORD });
    expect(unknown.status).toBe(404);
  });

  test("a revoked or expired link answers 410", async () => {
    const revoked = await invitedLink();
    const [row] = await h.db
      .update(invitations)
      .set({ revokedAt: new Date() })
      .where(eq(invitations.email, revoked.email))
      .returning();
    expect(row).toBeDefined();
    const res = await register(revoked.token, { username: `rev${n}`, name: "R", password: PASSWORD });
    expect(res.status).toBe(410);
    expect((await res.json()).detail).toMatch(/withdrawn/);
    const expired = await invitedLink();
    await h.db
      .update(invitations)
      .set({ expiresAt: new Date(h.clock.now().getTime() - 1000) })
      .where(eq(invitations.email, expired.email));
    const late = await register(expired.token, { username: `exp${n}`, name: "E", password: PASSWORD });
    expect(late.status).toBe(410);
    expect((await late.json()).detail).toMatch(/expired/);
  });

  test("one client address creates at most 10 accounts per 15 minutes (429 with Retry-After)", async () => {
    const ip = `10.77.${profile.name === "local" ? 1 : 2}.1`;
    const answers: number[] = [];
    for (let i = 0; i < 11; i++)
      answers.push((await register("B".repeat(43), { username: "x", name: "X", password: PASSWORD }, ip)).status);
    expect(answers.slice(0, 10).every((s) => s === 404)).toBe(true);
    const limited = await register("B".repeat(43), { username: "x", name: "X", password: PASSWORD }, ip);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
