import { auditEvents, localTwoFactors, recoveryCodes, twoFactorChallenges } from "@ams/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { totpCode } from "../../src/two-factor/totp.ts";
import { type Credentials, cookiesOf, createHarness, type Harness, type TestUser } from "../support/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

type Enrolled = { user: TestUser; as: Credentials; secret: string; codes: string[] };

/** The audit trail's kinds about the user, oldest first. */
const auditKinds = async (userId: string) =>
  (await h.db.select().from(auditEvents).where(eq(auditEvents.targetUserId, userId)))
    .sort((a, b) => Number(a.id) - Number(b.id))
    .map((e) => e.kind);

const json = async <T = Record<string, unknown>>(res: Response) => (await res.json()) as T;

/** A new user who enrolled two-factor through the routes, as the settings page does. */
async function enrolled(name: string): Promise<Enrolled> {
  const user = await h.user(name);
  const as = await h.session(user);
  const start = await h.call("POST", "/api/auth/two-factor/enrol", { as, body: { password: user.password } });
  expect(start.status).toBe(200);
  const { secret } = await json<{ secret: string }>(start);
  const confirm = await h.call("POST", "/api/auth/two-factor/confirm", {
    as,
    body: { code: totpCode(secret, h.clock.now()) },
  });
  expect(confirm.status).toBe(200);
  const { recovery_codes } = await json<{ recovery_codes: string[] }>(confirm);
  // The code just used is spent: the next sign-in of the test uses the next 30-second step.
  h.clock.advance(30_000);
  return { user, as, secret, codes: recovery_codes };
}

/** The first step: the password, answered with a challenge. */
async function firstStep(user: TestUser): Promise<string> {
  const { res } = await h.login(user);
  expect(res.status).toBe(200);
  const body = await json(res);
  expect(body).toMatchObject({ two_factor_required: true });
  return body.challenge as string;
}

const secondStep = (body: Record<string, unknown>) => h.call("POST", "/api/auth/local/login/two-factor", { body });

describe("enrolment (local profile)", () => {
  test("needs the password, shows a QR-code URI and the key, and is on only after a first code", async () => {
    const user = await h.user("tf-enrol");
    const as = await h.session(user);
    const wrong = await h.call("POST", "/api/auth/two-factor/enrol", { as, body: { password: "not-it" } });
    expect(wrong.status).toBe(422);
    expect((await json(wrong)).errors).toEqual([{ path: "password", message: "does not match" }]);

    const start = await h.call("POST", "/api/auth/two-factor/enrol", { as, body: { password: user.password } });
    const { secret, otpauth_uri } = await json<{ secret: string; otpauth_uri: string }>(start);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\/ArchiMate%20Modeler:tf-enrol\?/);
    expect(new URL(otpauth_uri).searchParams.get("secret")).toBe(secret);
    // Encrypted at rest: the key is not in the row, and the row is no base32 text either.
    const [row] = await h.db.select().from(localTwoFactors).where(eq(localTwoFactors.userId, user.id));
    expect(row?.secretCiphertext).toMatch(/^v1\./);
    expect(row?.secretCiphertext).not.toContain(secret);
    expect(await json(await h.call("GET", "/api/auth/two-factor", { as }))).toMatchObject({
      enabled: false,
      pending: true,
    });

    const bad = await h.call("POST", "/api/auth/two-factor/confirm", { as, body: { code: "000000" } });
    expect(bad.status).toBe(422);
    expect((await json(bad)).errors).toMatchObject([{ path: "code" }]);
    const ok = await h.call("POST", "/api/auth/two-factor/confirm", {
      as,
      body: { code: totpCode(secret, h.clock.now()) },
    });
    expect(ok.status).toBe(200);
    const { recovery_codes } = await json<{ recovery_codes: string[] }>(ok);
    expect(recovery_codes).toHaveLength(10);
    expect(new Set(recovery_codes).size).toBe(10);
    for (const code of recovery_codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    // Hashed at rest: no recovery code appears in the table.
    const stored = await h.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(stored).toHaveLength(10);
    for (const r of stored) expect(recovery_codes.some((c) => r.codeHash.includes(c.replace("-", "")))).toBe(false);
    expect(await json(await h.call("GET", "/api/auth/two-factor", { as }))).toEqual({
      enabled: true,
      pending: false,
      recovery_codes_left: 10,
      required_by: [],
    });
    const again = await h.call("POST", "/api/auth/two-factor/enrol", { as, body: { password: user.password } });
    expect(again.status).toBe(409);
  });
});

describe("sign-in with two-factor (local profile)", () => {
  test("the password alone gives a challenge, no session; the code completes the sign-in", async () => {
    const { user, secret } = await enrolled("tf-signin");
    const { res } = await h.login(user);
    const body = await json(res);
    expect(body).toEqual({ two_factor_required: true, challenge: expect.any(String), expires_at: expect.any(String) });
    expect(Object.keys(cookiesOf(res))).toEqual([]);
    // The challenge is stored hashed and bound to the user.
    const rows = await h.db.select().from(twoFactorChallenges).where(eq(twoFactorChallenges.userId, user.id));
    expect(rows.map((r) => r.tokenHash)).not.toContain(body.challenge);
    expect(rows).toHaveLength(1);

    const wrong = await secondStep({ challenge: body.challenge, code: "123456" });
    expect(wrong.status).toBe(401);
    expect((await json(wrong)).detail).toBe("code: is not valid");
    const done = await secondStep({ challenge: body.challenge, code: totpCode(secret, h.clock.now()) });
    expect(done.status).toBe(200);
    expect(await json(done)).toMatchObject({ id: user.id, username: "tf-signin" });
    const cookies = cookiesOf(done);
    expect(cookies.access_token).toBeTruthy();
    const me = await h.call("GET", "/api/me", { as: { cookies } });
    expect(me.status).toBe(200);
    // Single use: the same challenge cannot sign in a second browser.
    h.clock.advance(30_000);
    const reuse = await secondStep({ challenge: body.challenge, code: totpCode(secret, h.clock.now()) });
    expect(reuse.status).toBe(401);
  });

  test("a code used once is refused again within its window (replay), the next step's code works", async () => {
    const { user, secret } = await enrolled("tf-replay");
    const code = totpCode(secret, h.clock.now());
    expect((await secondStep({ challenge: await firstStep(user), code })).status).toBe(200);
    const replay = await secondStep({ challenge: await firstStep(user), code });
    expect(replay.status).toBe(401);
    expect((await json(replay)).detail).toMatch(/was used already/);
    h.clock.advance(30_000);
    const next = await secondStep({ challenge: await firstStep(user), code: totpCode(secret, h.clock.now()) });
    expect(next.status).toBe(200);
  });

  test("a recovery code signs in once", async () => {
    const { user, as, codes } = await enrolled("tf-recovery");
    const code = codes[3] ?? "";
    const first = await secondStep({ challenge: await firstStep(user), recovery_code: code.toUpperCase() });
    expect(first.status).toBe(200);
    expect((await json(await h.call("GET", "/api/auth/two-factor", { as }))).recovery_codes_left).toBe(9);
    const again = await secondStep({ challenge: await firstStep(user), recovery_code: code });
    expect(again.status).toBe(401);
    expect((await json(again)).detail).toMatch(/not an unused recovery code/);
    expect(await auditKinds(user.id)).toContain("two_factor.recovery_code_used");
  });

  test("a challenge dies after five wrong codes; an account after ten wrong codes waits (429)", async () => {
    const { user, secret } = await enrolled("tf-limit");
    const challenge = await firstStep(user);
    for (let i = 0; i < 5; i++) expect((await secondStep({ challenge, code: "000000" })).status).toBe(401);
    const dead = await secondStep({ challenge, code: totpCode(secret, h.clock.now()) });
    expect(dead.status).toBe(401);
    expect((await json(dead)).detail).toMatch(/too many wrong codes; sign in again/);
    const other = await firstStep(user);
    for (let i = 0; i < 5; i++) expect((await secondStep({ challenge: other, code: "000000" })).status).toBe(401);
    // Ten wrong codes from two challenges: the account's limit, whatever the challenge.
    const limited = await secondStep({ challenge: await firstStep(user), code: totpCode(secret, h.clock.now()) });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("disable and new recovery codes (local profile)", () => {
  test("new recovery codes replace the old ones; disabling needs the password or a code", async () => {
    const { user, as, secret, codes } = await enrolled("tf-disable");
    const fresh = await h.call("POST", "/api/auth/two-factor/recovery-codes", {
      as,
      body: { code: totpCode(secret, h.clock.now()) },
    });
    expect(fresh.status).toBe(200);
    const { recovery_codes } = await json<{ recovery_codes: string[] }>(fresh);
    expect(recovery_codes.some((c) => codes.includes(c))).toBe(false);
    expect((await secondStep({ challenge: await firstStep(user), recovery_code: codes[0] })).status).toBe(401);

    const neither = await h.call("POST", "/api/auth/two-factor/disable", { as, body: {} });
    expect(neither.status).toBe(422);
    const wrong = await h.call("POST", "/api/auth/two-factor/disable", { as, body: { password: "nope" } });
    expect(wrong.status).toBe(422);
    const off = await h.call("POST", "/api/auth/two-factor/disable", { as, body: { code: recovery_codes[0] } });
    expect(off.status).toBe(204);
    expect(await json(await h.call("GET", "/api/auth/two-factor", { as }))).toMatchObject({
      enabled: false,
      pending: false,
      recovery_codes_left: 0,
    });
    const { res } = await h.login(user);
    expect(await json(res)).toMatchObject({ id: user.id, must_change_password: false });
    expect(cookiesOf(res).access_token).toBeTruthy();
    const kinds = (await auditKinds(user.id)).filter((k) => k.startsWith("two_factor."));
    expect(kinds).toEqual([
      "two_factor.enabled",
      "two_factor.recovery_codes_regenerated",
      "two_factor.recovery_code_used",
      "two_factor.disabled",
    ]);
  });
});
