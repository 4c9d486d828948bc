import { type AddressInfo, createServer, type Socket } from "node:net";
import { accounts, auditEvents, passwordResetTokens, verifications } from "@ams/db";
import { must } from "@ams/shared/testing";
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sha256Hex } from "../../src/auth/secrets.ts";
import { createHarness, type Harness, type TestUser } from "../support/harness.ts";
import { ORIGIN, PROFILES, type Profile, sessionOf, signIn } from "../support/profiles.ts";
import { type SmtpTestServer, startSmtpServer } from "../support/smtp.ts";

/**
 * "Forgot password" in both profiles (the local one's routes, better-auth's behind /auth), with links read from
 * the mail the real SMTP server received: the same 202 for every address, a one-time link valid 30 minutes stored
 * as a hash, a reset that ends every session, and the limits per client address, per e-mail address and per account.
 */
const NEW_PASSWORD = "a-brand-new-password-1";

describe.each(PROFILES)("forgot password ($name profile)", (profile: Profile) => {
  let h: Harness;
  let smtp: SmtpTestServer;
  let clients = 0;
  const local = profile.name === "local";
  const forgotPath = local ? "/api/auth/local/forgot-password" : "/auth/request-password-reset";

  beforeAll(async () => {
    smtp = await startSmtpServer();
    h = await createHarness({ env: { ...profile.env, PUBLIC_URL: ORIGIN, SMTP_URL: smtp.url } });
  }, 60_000);
  afterAll(async () => {
    await h.close();
    await smtp.stop();
  });

  const forgot = (email: string, ip = `10.60.0.${++clients % 250}`) =>
    h.call("POST", forgotPath, { body: { email }, headers: { origin: ORIGIN, "x-forwarded-for": ip } });
  const reset = (token: string, password: string, ip = `10.61.0.${++clients % 250}`) =>
    h.call("POST", local ? "/api/auth/local/reset-password" : "/auth/reset-password", {
      body: local ? { token, password } : { token, newPassword: password },
      headers: { origin: ORIGIN, "x-forwarded-for": ip },
    });
  const mailsTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address));
  const tokenIn = (text: string) => must(/\/reset-password#token=([A-Za-z0-9_%-]+)/.exec(text)?.[1], "the link");

  /** The `index`-th message to `address`, once it has arrived (within 5 s). */
  async function mailNumber(address: string, index: number) {
    for (const until = Date.now() + 5000; Date.now() < until; ) {
      const found = mailsTo(address)[index];
      if (found) return found;
      await smtp.waitFor(smtp.messages.length + 1, 200).catch(() => undefined);
    }
    throw new Error(`no message ${index + 1} to ${address}`);
  }

  /** Asks for a link for the user's address and answers the token read from the delivered e-mail. */
  async function mailedToken(user: TestUser): Promise<string> {
    const before = mailsTo(`${user.username}@test.example`).length;
    expect((await forgot(`${user.username}@test.example`)).status).toBe(202);
    const mail = await mailNumber(`${user.username}@test.example`, before);
    return decodeURIComponent(tokenIn(mail.text));
  }

  test("the same 202 for a known and an unknown address; only the account's address gets a link", async () => {
    const user = await h.user(`known-${profile.name}`);
    const unknown = await forgot("nobody-here@example.test");
    const known = await forgot(`  ${user.username.toUpperCase()}@TEST.example `);
    expect(unknown.status).toBe(202);
    expect(known.status).toBe(202);
    expect(await unknown.json()).toEqual(await known.json());
    // Work after the answer runs in order: once the known address's mail is here, the unknown one was handled.
    const mail = await mailNumber(`${user.username}@test.example`, 0);
    expect(mailsTo("nobody-here@example.test")).toEqual([]);
    expect(mail.subject).toBe("Set a new password");
    expect(mail.text).toContain(`${ORIGIN}/reset-password#token=`);
    expect(mail.text).toContain("30 minutes");
    expect(mail.html).toContain("Set a new password</a>");
    // Only a hash of the token is stored.
    const token = decodeURIComponent(tokenIn(mail.text));
    const stored = JSON.stringify(
      local
        ? await h.db.select().from(passwordResetTokens)
        : await h.db.select().from(verifications).where(like(verifications.value, "%")),
    );
    expect(stored).not.toContain(token);
    if (local) expect(stored).toContain(sha256Hex(token));
  });

  test("the link sets the password once: every session ends, the old password fails, the new one works", async () => {
    const user = await h.user(`resetter-${profile.name}`);
    const before = await signIn(h, profile, user.username, user.password);
    const session = sessionOf(profile, before);
    expect((await h.call("GET", "/api/me", { as: session })).status).toBe(200);
    const token = await mailedToken(user);
    const res = await reset(token, NEW_PASSWORD);
    expect(res.status).toBeLessThan(300);
    // Every session of the account has ended (local: its refresh token no longer refreshes).
    if (local) {
      const jar = session && "cookies" in session ? session.cookies : {};
      const refresh = must(jar.refresh_token, "the refresh cookie");
      const refreshed = await h.call("POST", "/api/auth/refresh", { as: { cookies: { refresh_token: refresh } } });
      expect(refreshed.status).toBe(401);
      // …and its access token is refused at once, not when its 15 minutes run out.
      const access = must(jar.access_token, "the access cookie");
      expect((await h.call("GET", "/api/me", { as: { cookies: { access_token: access } } })).status).toBe(401);
    } else expect((await h.call("GET", "/api/me", { as: session })).status).toBe(401);
    expect((await signIn(h, profile, user.username, user.password)).status).toBe(401);
    expect((await signIn(h, profile, user.username, NEW_PASSWORD)).status).toBe(200);
    const again = await reset(token, "yet-another-password-2");
    expect(again.status).toBe(local ? 410 : 400);
    const [credential] = await h.db.select().from(accounts).where(eq(accounts.userId, user.id));
    expect(credential?.password).toMatch(/^\$argon2id\$/);
    // The audit trail: the mailed link and the reset, each with the client's address.
    const events = await h.db.select().from(auditEvents).where(eq(auditEvents.targetUserId, user.id));
    const recorded = events.filter((e) => e.kind.startsWith("password."));
    expect(recorded.map((e) => [e.kind, e.address?.slice(0, 6)]).sort()).toEqual([
      ["password.reset", "10.61."],
      ["password.reset_requested", "10.60."],
    ]);
  });

  test("a link older than 30 minutes is refused and the password stays", async () => {
    const user = await h.user(`late-${profile.name}`);
    const token = await mailedToken(user);
    if (local) h.clock.advance(31 * 60 * 1000);
    else await h.db.update(verifications).set({ expiresAt: new Date(Date.now() - 1000) });
    const res = await reset(token, NEW_PASSWORD);
    expect(res.status).toBe(local ? 410 : 400);
    if (local) expect((await res.json()).detail).toMatch(/expired/);
    if (local) h.clock.advance(-31 * 60 * 1000);
    expect((await signIn(h, profile, user.username, user.password)).status).toBe(200);
  });

  test("the password policy of a password change; an unknown token changes nothing", async () => {
    const user = await h.user(`policy-${profile.name}`);
    const token = await mailedToken(user);
    const short = await reset(token, "short");
    expect(short.status).toBe(local ? 422 : 400);
    expect((await reset("C".repeat(43), NEW_PASSWORD)).status).toBe(local ? 404 : 400);
    expect((await reset(token, NEW_PASSWORD)).status).toBeLessThan(300);
  });

  test("limits: 3 e-mails per address per hour (then 202 and nothing sent); 10 requests per client address (429)", async () => {
    const user = await h.user(`limited-${profile.name}`);
    const address = `${user.username}@test.example`;
    for (let i = 0; i < 4; i++) expect((await forgot(address)).status).toBe(202);
    // A later request to another account passes the queue: by then all four were handled.
    const other = await h.user(`other-${profile.name}`);
    await mailedToken(other);
    expect(mailsTo(address)).toHaveLength(3);
    const ip = `10.62.${local ? 1 : 2}.9`;
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await forgot(`someone-${i}@example.test`, ip)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(202));
    expect(statuses[10]).toBe(429);
  });
});

describe.each(PROFILES)("the answer does not wait for the e-mail ($name profile)", (profile: Profile) => {
  test("with an SMTP server that never answers, a known address is still answered at once (202)", async () => {
    // A mail server that accepts the connection and then says nothing: a send would wait for its 10 s timeout.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as AddressInfo).port;
    const h = await createHarness({
      env: { ...profile.env, PUBLIC_URL: ORIGIN, SMTP_URL: `smtp://127.0.0.1:${port}` },
    });
    try {
      const user = await h.user(`stalled-${profile.name}`);
      const path = profile.name === "local" ? "/api/auth/local/forgot-password" : "/auth/request-password-reset";
      const ask = async (email: string) => {
        const started = performance.now();
        const res = await h.call("POST", path, { body: { email }, headers: { origin: ORIGIN } });
        return { status: res.status, ms: performance.now() - started };
      };
      const known = await ask(`${user.username}@test.example`);
      const unknown = await ask("nobody-at-all@example.test");
      expect([known.status, unknown.status]).toEqual([202, 202]);
      expect(known.ms).toBeLessThan(2000);
      // The mail really was attempted (after the answer): the silent server got the connection.
      const until = Date.now() + 5000;
      while (sockets.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(sockets.length).toBeGreaterThan(0);
    } finally {
      // Closing the sockets fails the pending send at once (logged, not thrown), before the database goes away.
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => setTimeout(r, 200));
      silent.close();
      await h.close();
    }
  });
});

describe("without e-mail", () => {
  test("the sign-in options say so and the local request answers 503", async () => {
    const h = await createHarness();
    try {
      expect(await (await h.call("GET", "/api/auth/options")).json()).toMatchObject({ password_reset: false });
      const res = await h.call("POST", "/api/auth/local/forgot-password", { body: { email: "a@example.test" } });
      expect(res.status).toBe(503);
    } finally {
      await h.close();
    }
  });
});
