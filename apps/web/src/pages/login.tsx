import { useState } from "preact/hooks";
import { api, describeError } from "../api/client.ts";
import { navigate, queryParam, returnPath, withReturn } from "../app/router.ts";
import { authOptions, loadSession, session } from "../app/session.ts";
import { useStore } from "../app/store.ts";
import { FormError } from "../ui/form.tsx";

export function LoginPage() {
  const { messages } = useStore(session);
  const options = useStore(authOptions);
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  // A provider sign-in that failed comes back here with better-auth's error code.
  const [error, setError] = useState<string | null>(() =>
    queryParam("error")
      ? `Sign-in with your organization's account did not complete (${queryParam("error")}). Try again.`
      : null,
  );
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // The session profile signs in through better-auth (httpOnly session cookie), the local one with local accounts.
      await api.post(options.profile === "session" ? "/auth/sign-in/username" : "/api/auth/local/login", {
        username,
        password,
      });
      const profile = await loadSession();
      // A forced password change comes first, and then the page that was asked for (an MCP client's consent, say).
      navigate(profile?.must_change_password ? withReturn("/change-password", returnPath()) : returnPath(), {
        replace: true,
      });
    } catch (err) {
      setError(describeError(err));
      setBusy(false);
    }
  };

  // The session profile's SSO is better-auth's generic OAuth sign-in: it answers where to send the browser.
  const ssoSession = async () => {
    setBusy(true);
    setError(null);
    try {
      const { url } = await api.post<{ url: string }>("/auth/sign-in/social", {
        provider: "keycloak",
        callbackURL: returnPath(),
        errorCallbackURL: "/login",
      });
      window.location.assign(url);
    } catch (err) {
      setError(describeError(err));
      setBusy(false);
    }
  };

  return (
    <main class="auth-page" id="main">
      <form class="auth-card" onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title">Sign in to the ArchiMate Modeler</h1>
        {messages?.login.enabled && messages.login.text ? (
          <p class="login-message" role="note">
            {messages.login.text}
          </p>
        ) : null}
        <div class="field">
          <label for="login-username">Username</label>
          <input
            id="login-username"
            name="username"
            autocomplete="username"
            required
            value={username}
            onInput={(e) => setUsername(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="login-password">Password</label>
          <input
            id="login-password"
            name="password"
            type="password"
            autocomplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </div>
        <FormError error={error} />
        <button type="submit" class="primary wide" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
        {options.sso && options.profile === "session" ? (
          <button type="button" class="wide" onClick={ssoSession} disabled={busy}>
            Sign in with your organization's account (SSO)
          </button>
        ) : options.sso ? (
          <a class="button wide" href={`/api/auth/login?from=${encodeURIComponent(returnPath())}`}>
            Sign in with your organization's account (SSO)
          </a>
        ) : null}
      </form>
    </main>
  );
}
