import { api, onSignedOut, onTwoFactorRequired } from "../api/client.ts";
import type { AuthOptions, MemberRole, Membership, Profile, SiteMessages } from "../api/types.ts";
import { location, navigate } from "./router.ts";
import { createStore } from "./store.ts";

/** Who is signed in (null: nobody; undefined: not known yet), the site messages and the sign-in options. */
export const session = createStore<{ profile: Profile | null | undefined; messages: SiteMessages | null }>({
  profile: undefined,
  messages: null,
});
export const authOptions = createStore<AuthOptions>({ profile: "local", sso: false, password_reset: false });

export async function loadSession(): Promise<Profile | null> {
  const [profile, messages, options] = await Promise.all([
    api.get<Profile>("/api/me").catch(() => null),
    api.get<SiteMessages>("/api/settings/messages").catch(() => null),
    api.get<AuthOptions>("/api/auth/options").catch(() => null),
  ]);
  session.set({ profile, messages });
  if (options) authOptions.set(options);
  return profile;
}

export async function refreshProfile(): Promise<Profile | null> {
  const profile = await api.get<Profile>("/api/me").catch(() => null);
  session.set((s) => ({ ...s, profile }));
  return profile;
}

export function activeMembership(profile: Profile | null | undefined): Membership | undefined {
  if (!profile) return undefined;
  return profile.memberships.find((m) => m.organization_id === profile.active_organization_id);
}

/** Can the caller change the model of the active organization? Viewers see no edit controls at all. */
/** The role names of this deployment's sign-in profile, most powerful first (the server refuses the others). */
export function memberRoles(): MemberRole[] {
  return authOptions.get().profile === "session" ? ["owner", "admin", "member"] : ["owner", "editor", "viewer"];
}

/** The least powerful role: the default for a new member or invitation. */
export const readerRole = (): MemberRole => (authOptions.get().profile === "session" ? "member" : "viewer");

/** Who manages members and invitations: owners, and in the session profile admins too. */
export function managesMembers(role: string | undefined): boolean {
  return role === "owner" || (role === "admin" && authOptions.get().profile === "session");
}

/** Teams exist in the session profile only. */
export const hasTeams = (): boolean => authOptions.get().profile === "session";

export function canEdit(profile: Profile | null | undefined): boolean {
  const role = activeMembership(profile)?.role;
  return role === "owner" || role === "editor" || role === "admin";
}

export async function signOut(): Promise<void> {
  // POST /api/auth/logout ends the session (access and refresh token), clears the cookies and answers with a
  // redirect; in the session profile better-auth's sign-out deletes the session and clears its cookie.
  const out =
    authOptions.get().profile === "session"
      ? // better-auth refuses a POST without a JSON body (415), which would leave the session alive.
        fetch("/auth/sign-out", {
          method: "POST",
          credentials: "same-origin",
          headers: { "content-type": "application/json" },
          body: "{}",
        })
      : fetch("/api/auth/logout", { method: "POST", credentials: "same-origin", redirect: "manual" });
  await out.catch(() => undefined);
  session.set((s) => ({ ...s, profile: null }));
  navigate("/login", { replace: true });
}

/** Pages a visitor who is not signed in may see: sign-in, "forgot password", and an invitation link. */
export function isPublicPage(path: string): boolean {
  return PUBLIC_PAGES.has(path) || /^\/invitations\/[^/]+$/.test(path);
}
const PUBLIC_PAGES = new Set(["/login", "/forgot-password", "/reset-password"]);

onSignedOut(() => {
  const { path, search } = location.get();
  session.set((s) => ({ ...s, profile: null }));
  if (!isPublicPage(path)) navigate(`/login?from=${encodeURIComponent(path + search)}`, { replace: true });
});

/** An organization that requires two-factor sends a member without it to enrolment, before anything else. */
export const TWO_FACTOR_SETTINGS = "/settings#two-factor";

onTwoFactorRequired(() => {
  if (location.get().path !== "/settings") navigate(TWO_FACTOR_SETTINGS, { replace: true });
});
