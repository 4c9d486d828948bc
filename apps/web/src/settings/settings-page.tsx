import { onLinkClick } from "../app/router.ts";
import { authOptions, session } from "../app/session.ts";
import { Shell } from "../app/shell.tsx";
import { useStore } from "../app/store.ts";
import { ApiTokens } from "./api-tokens.tsx";
import { Sessions } from "./sessions.tsx";
import { TwoFactorSection } from "./two-factor.tsx";

/** Personal settings: the account, its password, its sessions (session profile) and the personal API tokens. */
export function SettingsPage() {
  const { profile } = useStore(session);
  const options = useStore(authOptions);
  if (!profile) return null;
  return (
    <Shell>
      <main class="page" id="main">
        <h1>Your settings</h1>
        <section class="card" aria-labelledby="account-title">
          <h2 id="account-title">Account</h2>
          <dl class="facts">
            <dt>Username</dt>
            <dd>{profile.username}</dd>
            <dt>Name</dt>
            <dd>{profile.name}</dd>
            <dt>E-mail</dt>
            <dd>
              {profile.email ?? "none"}
              {profile.email && !profile.email_verified ? " (not verified)" : ""}
            </dd>
          </dl>
          {/* The session profile's accounts ("session") change their password through better-auth, like local ones. */}
          {profile.auth_provider !== "oidc" ? (
            <p>
              <a href="/change-password" onClick={onLinkClick}>
                Change password
              </a>
            </p>
          ) : (
            <p class="muted">Your password is managed by your identity provider.</p>
          )}
        </section>
        {profile.auth_provider !== "oidc" ? <TwoFactorSection /> : null}
        {options.profile === "session" ? <Sessions /> : null}
        <ApiTokens />
      </main>
    </Shell>
  );
}
