import { useState } from "preact/hooks";
import { ApiError, api, describeError } from "../api/client.ts";
import { onLinkClick, withReturn } from "../app/router.ts";
import { loadSession } from "../app/session.ts";
import { FormError } from "../ui/form.tsx";
import { explainPasswordError, NewPasswordFields } from "../ui/new-password.tsx";

export type Joined = { organizationName: string; role: string; alreadyMember: boolean };

type Registered = { organization: { id: string; name: string }; role: string };

/**
 * What a visitor who is not signed in sees at an invitation link: "Create your account" (the link proves the
 * invited address, which becomes the account's e-mail) beside "Sign in" for someone who has an account.
 */
export function CreateAccountFromInvitation(props: { token: string; onJoined(joined: Joined): void }) {
  const [username, setUsername] = useState("");
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const here = `/invitations/${encodeURIComponent(props.token)}`;

  const submit = async (e: Event) => {
    e.preventDefault();
    if (password !== repeat) return setError("The two passwords differ.");
    setBusy(true);
    setError(null);
    try {
      const out = await api.post<Registered>(`/api${here}/register`, { username, name, password });
      await api.post(`/api/organizations/${encodeURIComponent(out.organization.id)}/activate`).catch(() => undefined);
      await loadSession();
      props.onJoined({ organizationName: out.organization.name, role: out.role, alreadyMember: false });
    } catch (err) {
      setError(explain(err));
      setBusy(false);
    }
  };

  return (
    <main class="auth-page" id="main">
      <form class="auth-card" onSubmit={submit} aria-labelledby="register-title">
        <h1 id="register-title">Create your account</h1>
        <p>
          You were invited to join an organization. Create your account to accept, or{" "}
          <a href={withReturn("/login", here)} onClick={onLinkClick}>
            sign in
          </a>{" "}
          if you have one already. Your e-mail address is the one the invitation was sent to.
        </p>
        <div class="field">
          <label for="register-username">Username</label>
          <input
            id="register-username"
            autocomplete="username"
            required
            maxLength={64}
            aria-describedby="register-username-hint"
            value={username}
            onInput={(e) => setUsername(e.currentTarget.value)}
          />
          <p class="hint" id="register-username-hint">
            Letters, digits and . _ @ - only. You sign in with it.
          </p>
        </div>
        <div class="field">
          <label for="register-name">Your name</label>
          <input
            id="register-name"
            autocomplete="name"
            required
            maxLength={200}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </div>
        <NewPasswordFields
          idPrefix="register"
          password={password}
          repeat={repeat}
          onPassword={setPassword}
          onRepeat={setRepeat}
        />
        <FormError error={error} />
        <button type="submit" class="primary wide" disabled={busy}>
          Create account and join
        </button>
        <a class="button wide" href={withReturn("/login", here)} onClick={onLinkClick}>
          Sign in
        </a>
      </form>
    </main>
  );
}

/** The server's refusals in words: a taken username names the field, a used link says so. */
function explain(err: unknown): string {
  if (err instanceof ApiError && err.errors.some((e) => e.path === "username" && /taken/.test(e.message)))
    return "This username is taken. Choose another one.";
  if (err instanceof ApiError && (err.status === 409 || err.status === 410 || err.status === 404))
    return describeError(err);
  return explainPasswordError(err);
}
