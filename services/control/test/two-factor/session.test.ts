import { auditEvents, twoFactors } from "@ams/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { totpCode } from "../../src/two-factor/totp.ts";
import { type Credentials, cookiesOf, createHarness, type Harness, type TestUser } from "../support/harness.ts";

/** AUTH_MODE=session: better-auth's two-factor plugin behind the /auth allow-list, with replay refusal added. */
let h: Harness;
const ORIGIN = "http://control.test";
const COOKIE = "ams.session_token";
const TWO_FACTOR_COOKIE = "ams.two_factor";

beforeAll(async () => {
  h = await createHarness({ env: { AUTH_MODE: "session" } });
});
afterAll(() => h.close());

const json = async <T = Record<string, unknown>>(res: Response) => (await res.json()) as T;
let clients = 0;
const post = (path: string, body: unknown, cookies: Record<string, string> = {}) =>
  h.call("POST", path, {
    as: { cookies },
    body,
    headers: { origin: ORIGIN, "x-forwarded-for": `10.7.0.${++clients}` },
  });

async function signIn(user: TestUser): Promise<Response> {
  return post("/auth/sign-in/username", { username: user.username, password: user.password });
}

function sessionOf(res: Response): Credentials & { cookies: Record<string, string> } {
  const value = cookiesOf(res)[COOKIE];
  if (!value) throw new Error(`no session cookie (status ${res.status})`);
  return { cookies: { [COOKIE]: value } };
}

/** better-auth's secret, as an authenticator app reads it from the QR code's URI. */
const secretOf = (totpURI: string) => new URL(totpURI).searchParams.get("secret") ?? "";
/** better-auth checks codes against the real clock (one step either side). */
const codeAt = (secret: string, offsetSeconds = 0) => totpCode(secret, new Date(Date.now() + offsetSeconds * 1000));

/** Enrols through better-auth: enable (password) answers the URI and the codes; the first code turns it on. */
async function enrol(user: TestUser) {
  let as = sessionOf(await signIn(user));
  const enable = await post("/auth/two-factor/enable", { password: user.password }, as.cookies);
  expect(enable.status).toBe(200);
  const { totpURI, backupCodes } = await json<{ totpURI: string; backupCodes: string[] }>(enable);
  // better-auth replaces the session when it changes the two-factor state.
  as = cookiesOf(enable)[COOKIE] ? sessionOf(enable) : as;
  const secret = secretOf(totpURI);
  const firstCode = codeAt(secret);
  const confirm = await post("/auth/two-factor/verify-totp", { code: firstCode }, as.cookies);
  expect(confirm.status).toBe(200);
  as = cookiesOf(confirm)[COOKIE] ? sessionOf(confirm) : as;
  return { as, secret, firstCode, totpURI, backupCodes };
}

/** Password step of a user with two-factor: no session, the two_factor cookie for the second step. */
async function firstStep(user: TestUser): Promise<Record<string, string>> {
  const res = await signIn(user);
  expect(res.status).toBe(200);
  expect(await json(res)).toMatchObject({ twoFactorRedirect: true });
  expect(cookiesOf(res)[COOKIE] ?? "").toBe("");
  const pending = cookiesOf(res)[TWO_FACTOR_COOKIE];
  expect(pending).toBeTruthy();
  return { [TWO_FACTOR_COOKIE]: pending ?? "" };
}

describe("two-factor in the session profile", () => {
  test("enrol, sign-in needs the second step, wrong and replayed codes refused, recovery code once, disable", async () => {
    const user = await h.user("sam-tf");
    const { as, secret, firstCode, totpURI, backupCodes } = await enrol(user);
    expect(totpURI).toMatch(/^otpauth:\/\/totp\/ArchiMate%20Modeler:/);
    expect(backupCodes).toHaveLength(10);
    for (const code of backupCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    // Recovery codes are stored as hashes only.
    const [row] = await h.db.select().from(twoFactors).where(eq(twoFactors.userId, user.id));
    for (const code of backupCodes) expect(row?.backupCodes).not.toContain(code);
    expect(row?.secret).not.toContain(secret);
    expect(await json(await h.call("GET", "/api/auth/two-factor", { as }))).toEqual({
      enabled: true,
      pending: false,
      recovery_codes_left: 10,
      required_by: [],
    });

    const pending = await firstStep(user);
    const wrong = await post("/auth/two-factor/verify-totp", { code: "000000" }, pending);
    expect(wrong.status).toBe(401);
    // The enrolment's code is spent: presenting it again is refused, whatever its window.
    const replay = await post("/auth/two-factor/verify-totp", { code: firstCode }, pending);
    expect(replay.status).toBe(401);
    expect((await json(replay)).detail).toMatch(/was used already/);
    const ok = await post("/auth/two-factor/verify-totp", { code: codeAt(secret, 30) }, pending);
    expect(ok.status).toBe(200);
    expect((await json(ok)).token).toBeUndefined();
    const signedIn = sessionOf(ok);
    expect((await h.call("GET", "/api/me", { as: signedIn })).status).toBe(200);

    // A recovery code signs in once (typed in capitals, still the same code).
    const recovery = backupCodes[2] ?? "";
    const viaCode = await post(
      "/auth/two-factor/verify-backup-code",
      { code: recovery.toUpperCase() },
      await firstStep(user),
    );
    expect(viaCode.status).toBe(200);
    expect((await h.call("GET", "/api/me", { as: sessionOf(viaCode) })).status).toBe(200);
    const again = await post("/auth/two-factor/verify-backup-code", { code: recovery }, await firstStep(user));
    expect(again.status).toBe(401);
    expect((await json(await h.call("GET", "/api/auth/two-factor", { as: signedIn }))).recovery_codes_left).toBe(9);

    // New recovery codes (password) replace the old ones.
    const fresh = await post("/auth/two-factor/generate-backup-codes", { password: user.password }, signedIn.cookies);
    expect(fresh.status).toBe(200);
    const { backupCodes: renewed } = await json<{ backupCodes: string[] }>(fresh);
    expect(renewed).toHaveLength(10);
    const old = await post("/auth/two-factor/verify-backup-code", { code: backupCodes[4] }, await firstStep(user));
    expect(old.status).toBe(401);

    // Disable needs the password; then the password alone signs in.
    const refused = await post("/auth/two-factor/disable", { password: "wrong-password-1" }, signedIn.cookies);
    expect(refused.status).toBe(400);
    const off = await post("/auth/two-factor/disable", { password: user.password }, signedIn.cookies);
    expect(off.status).toBe(200);
    const plain = await signIn(user);
    expect(plain.status).toBe(200);
    expect(cookiesOf(plain)[COOKIE]).toBeTruthy();
    const events = await h.db.select().from(auditEvents).where(eq(auditEvents.targetUserId, user.id));
    const kinds = events.sort((a, b) => Number(a.id) - Number(b.id)).map((e) => e.kind);
    expect(kinds.filter((k) => k.startsWith("two_factor."))).toEqual([
      "two_factor.enabled",
      "two_factor.recovery_code_used",
      "two_factor.recovery_codes_regenerated",
      "two_factor.disabled",
    ]);
    expect(events.filter((e) => e.kind === "sign_in.succeeded" && e.details.method === "two_factor")).toHaveLength(2);
  });

  test("the organization rule sends a member without two-factor away (403 TWO_FACTOR_REQUIRED); API tokens unaffected", async () => {
    const owner = await h.user("orla-tf");
    const member = await h.user("milo-tf");
    const org = await h.org("Strict", [
      [owner, "owner"],
      [member, "member"],
    ]);
    await h.workspace(org.id);
    const memberAs = sessionOf(await signIn(member));
    const created = await h.call("POST", "/api/settings/api-tokens", {
      as: memberAs,
      body: { organization_id: org.id },
      headers: { origin: ORIGIN },
    });
    expect(created.status).toBe(201);
    const { token } = await json<{ token: string }>(created);

    const { as: ownerAs } = await enrol(owner);
    const set = await h.call("PUT", `/api/organizations/${org.id}`, {
      as: ownerAs,
      body: { require_two_factor: true },
      headers: { origin: ORIGIN },
    });
    expect(set.status).toBe(200);
    const refused = await h.call("GET", "/api/workspaces", { as: memberAs });
    expect(refused.status).toBe(403);
    expect(await json(refused)).toMatchObject({ code: "TWO_FACTOR_REQUIRED" });
    expect((await h.call("GET", "/api/workspaces", { as: { bearer: token } })).status).toBe(200);

    const { as: enrolledAs } = await enrol(member);
    expect((await h.call("GET", "/api/workspaces", { as: enrolledAs })).status).toBe(200);
    expect(await json(await h.call("GET", "/api/me", { as: enrolledAs }))).toMatchObject({
      two_factor_enabled: true,
      memberships: [{ organization_id: org.id, requires_two_factor: true }],
    });
  });
});
