import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@ams/shared";
import { useState } from "preact/hooks";
import { ApiError, api, describeError } from "../api/client.ts";
import { navigate, onLinkClick, returnPath } from "../app/router.ts";
import { authOptions, refreshProfile, session } from "../app/session.ts";
import { useStore } from "../app/store.ts";
import { FormError } from "../ui/form.tsx";

/** The refusals of a password change in words: better-auth's codes, and the local profile's field errors. */
function explain(err: unknown): string {
  if (err instanceof ApiError && err.code === "INVALID_PASSWORD") return "The current password is not correct.";
  // The local profile's refusal names the field: { path: "current_password", message: "does not match" }.
  if (err instanceof ApiError && err.errors.some((e) => e.path === "current_password" && /match/.test(e.message)))
    return "The current password is not correct.";
  if (err instanceof ApiError && err.code === "PASSWORD_TOO_SHORT")
    return `The new password is too short: at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (err instanceof ApiError && err.code === "PASSWORD_TOO_LONG") return "The new password is too long.";
  return describeError(err);
}

/** The forced password change after a first sign-in (or an admin reset); Skip keeps the current password. */
export function ChangePasswordPage() {
  const { profile } = useStore(session);
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [repeat, setRepeat] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const forced = profile?.must_change_password ?? false;

  // Back to the page the change interrupted (an MCP client's consent page keeps its pending request), else home.
  const done = async () => {
    await refreshProfile();
    navigate(returnPath(), { replace: true });
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    if (next !== repeat) return setError("The two new passwords differ.");
    setBusy(true);
    setError(null);
    try {
      // The session profile's passwords are better-auth's: its change ends every other session and renews this one.
      if (authOptions.get().profile === "session")
        await api.post("/auth/change-password", { currentPassword: current, newPassword: next });
      else await api.post("/api/auth/change-password", { current_password: current, new_password: next });
      await done();
    } catch (err) {
      setError(explain(err));
      setBusy(false);
    }
  };
  const skip = async () => {
    try {
      await api.post("/api/auth/change-password/skip");
      await done();
    } catch (err) {
      setError(describeError(err));
    }
  };

  return (
    <main class="auth-page" id="main">
      <form class="auth-card" onSubmit={submit} aria-labelledby="cp-title">
        <h1 id="cp-title">Change your password</h1>
        {forced ? <p>Your password must be changed before you continue. You can also skip this for now.</p> : null}
        <div class="field">
          <label for="cp-current">Current password</label>
          <input
            id="cp-current"
            type="password"
            autocomplete="current-password"
            required
            value={current}
            onInput={(e) => setCurrent(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="cp-new">New password</label>
          <input
            id="cp-new"
            type="password"
            autocomplete="new-password"
            required
            minLength={PASSWORD_MIN_LENGTH}
            maxLength={PASSWORD_MAX_LENGTH}
            aria-describedby="cp-new-hint"
            value={next}
            onInput={(e) => setNext(e.currentTarget.value)}
          />
          <p class="hint" id="cp-new-hint">
            At least {PASSWORD_MIN_LENGTH} characters.
          </p>
        </div>
        <div class="field">
          <label for="cp-repeat">Repeat the new password</label>
          <input
            id="cp-repeat"
            type="password"
            autocomplete="new-password"
            required
            value={repeat}
            onInput={(e) => setRepeat(e.currentTarget.value)}
          />
        </div>
        <FormError error={error} />
        <button type="submit" class="primary wide" disabled={busy}>
          Change password
        </button>
        {forced ? (
          <button type="button" class="wide" onClick={skip}>
            Skip for now
          </button>
        ) : (
          <a class="button wide" href="/" onClick={onLinkClick}>
            Cancel
          </a>
        )}
      </form>
    </main>
  );
}
