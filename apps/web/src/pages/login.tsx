import { useEffect, useState } from "preact/hooks";
import { api, describeError } from "../api/client.ts";
import type { SignInProvider } from "../api/types.ts";
import { navigate, onLinkClick, queryParam, returnPath, withReturn } from "../app/router.ts";
import { authOptions, loadSession, session } from "../app/session.ts";
import { useStore } from "../app/store.ts";
import { FormError } from "../ui/form.tsx";
import { SecondStep } from "./login-second-step.tsx";

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
  // The password was right and the account uses two-factor: the second step (challenge: the local profile's).
  const [second, setSecond] = useState<{ challenge: string | null } | null>(null);
  // The session profile's providers (GET /auth/providers): one button each, named after the provider.
  const [providers, setProviders] = useState<SignInProvider[]>([]);
  useEffect(() => {
    if (options.profile !== "session") return setProviders([]);
    let current = true;
    api
      .get<{ providers: SignInProvider[] }>("/auth/providers")
      .then((r) => current && setProviders(r.providers))
      .catch((err) => current && setError(`The sign-in providers could not be listed: ${describeError(err)}`));
    return () => {
      current = false;
    };
  }, [options.profile]);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // The session profile signs in through better-auth (httpOnly session cookie), the local one with local accounts.
      const answer = await api.post<{ two_factor_required?: boolean; challenge?: string; twoFactorRedirect?: boolean }>(
        options.profile === "session" ? "/auth/sign-in/username" : "/api/auth/local/login",
        { username, password },
      );
      if (answer.two_factor_required || answer.twoFactorRedirect) {
        setSecond({ challenge: answer.challenge ?? null });
        setBusy(false);
        return;
      }
      await signedIn();
    } catch (err) {
      setError(describeError(err));
      setBusy(false);
    }
  };

  const signedIn = async () => {
    try {
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

  // A provider sign-in of the session profile is better-auth's generic OAuth sign-in at the provider's sign_in_url:
  // it answers where to send the browser.
  const ssoSession = async (provider: SignInProvider) => {
    setBusy(true);
    setError(null);
    try {
      const { url } = await api.post<{ url: string }>(provider.sign_in_url, {
        provider: provider.id,
        callbackURL: returnPath(),
        errorCallbackURL: "/login",
      });
      window.location.assign(url);
    } catch (err) {
      setError(`Sign-in with ${provider.name} could not start: ${describeError(err)}`);
      setBusy(false);
    }
  };

  if (second)
    return (
      <main class="auth-page" id="main">
        <SecondStep challenge={second.challenge} onDone={signedIn} onRestart={() => setSecond(null)} />
      </main>
    );
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
        {options.password_reset ? (
          <p class="auth-links">
            <a href="/forgot-password" onClick={onLinkClick}>
              Forgot password?
            </a>
          </p>
        ) : null}
        {options.profile === "session" ? (
          providers.map((p) => (
            <button key={p.id} type="button" class="wide" onClick={() => ssoSession(p)} disabled={busy}>
              Sign in with {p.name}
            </button>
          ))
        ) : options.sso ? (
          <a class="button wide" href={`/api/auth/login?from=${encodeURIComponent(returnPath())}`}>
            Sign in with your organization's account (SSO)
          </a>
        ) : null}
      </form>
    </main>
  );
}
