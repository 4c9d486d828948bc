import { expect } from "vitest";
import { type Credentials, cookiesOf, type Harness, type TestUser } from "../support/harness.ts";

export type Profile = "local" | "session";
export const ORIGIN = "http://control.test";
export const SESSION_COOKIE = "ams.session_token";

/** Signs a user in the way the profile does (local login, or better-auth's username sign-in), from `ip`. */
export async function signIn(h: Harness, profile: Profile, user: TestUser, ip = "192.0.2.1"): Promise<Credentials> {
  if (profile === "local") {
    const { res, cookies } = await h.login(user, { ip });
    expect(res.status, `sign-in of ${user.username}`).toBe(200);
    return { cookies };
  }
  const res = await h.call("POST", "/auth/sign-in/username", {
    body: { username: user.username, password: user.password },
    headers: { origin: ORIGIN, "x-forwarded-for": ip },
  });
  expect(res.status, `sign-in of ${user.username}`).toBe(200);
  return { cookies: { [SESSION_COOKIE]: cookiesOf(res)[SESSION_COOKIE] ?? "" } };
}

/** A failed sign-in attempt in the profile's way; answers the status. */
export async function failSignIn(h: Harness, profile: Profile, username: string, ip: string): Promise<number> {
  const path = profile === "local" ? "/api/auth/local/login" : "/auth/sign-in/username";
  const res = await h.call("POST", path, {
    body: { username, password: "not-the-password-123" },
    headers: { origin: ORIGIN, "x-forwarded-for": ip },
  });
  return res.status;
}

export type Entry = {
  id: number;
  kind: string;
  occurred_at: string;
  actor: { id: string; name: string } | null;
  target: { id: string; name: string } | null;
  organization: { id: string; name: string | null } | null;
  address: string | null;
  details: Record<string, unknown>;
};
