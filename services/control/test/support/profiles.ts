import type { Credentials, Harness } from "./harness.ts";
import { cookiesOf } from "./harness.ts";

/** The two sign-in profiles the account flows run in, with what differs between them for a test. */
export type Profile = {
  name: "local" | "session";
  env: Record<string, string>;
  /** A role an owner may invite with in this profile. */
  invitedRole: string;
  /** The cookies that carry a signed-in browser. */
  sessionCookies: string[];
};

export const PROFILES: Profile[] = [
  { name: "local", env: {}, invitedRole: "editor", sessionCookies: ["access_token", "refresh_token"] },
  { name: "session", env: { AUTH_MODE: "session" }, invitedRole: "member", sessionCookies: ["ams.session_token"] },
];

export const ORIGIN = "http://control.test";
let address = 0;

/** Signs in with username and password the way this profile's sign-in page does; each call from a new address. */
export function signIn(h: Harness, profile: Profile, username: string, password: string): Promise<Response> {
  const path = profile.name === "session" ? "/auth/sign-in/username" : "/api/auth/local/login";
  return h.call("POST", path, {
    body: { username, password },
    headers: { origin: ORIGIN, "x-forwarded-for": `10.99.${Math.floor(++address / 250)}.${address % 250}` },
  });
}

/** The session cookies an answer set (sign-in, registration), as credentials for later calls. */
export function sessionOf(profile: Profile, res: Response): Credentials {
  const set = cookiesOf(res);
  const cookies: Record<string, string> = {};
  for (const name of profile.sessionCookies) {
    const value = set[name];
    if (!value) throw new Error(`no ${name} cookie in the answer (${res.status})`);
    cookies[name] = value;
  }
  return { cookies };
}
