import { useState } from "preact/hooks";
import { ApiError, api } from "../api/client.ts";
import { onLinkClick } from "../app/router.ts";
import { authOptions } from "../app/session.ts";
import { useStore } from "../app/store.ts";
import { FormError } from "../ui/form.tsx";
import { explainPasswordError, NewPasswordFields } from "../ui/new-password.tsx";

/** The token of the mailed link: in the fragment (`#token=`), which browsers never send to any server. */
function tokenOfLink(): string | null {
  return new URLSearchParams(window.location.hash.slice(1)).get("token");
}

/** A link that cannot be used any more, in words (the local profile's 404/410, better-auth's INVALID_TOKEN). */
function linkRefusal(err: unknown): string | null {
  if (!(err instanceof ApiError)) return null;
  if (err.code === "INVALID_TOKEN" || err.status === 404 || err.status === 410)
    return err.status === 410 ? err.message : "This link is not valid any more: it was used already or has expired.";
  return null;
}

/** The page of the link in the "forgot password" e-mail: a new password, then sign in with it. */
export function ResetPasswordPage() {
  const options = useStore(authOptions);
  const [token] = useState(tokenOfLink);
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [gone, setGone] = useState<string | null>(token ? null : "This page needs the link from the e-mail.");
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (password !== repeat) return setError("The two passwords differ.");
    setBusy(true);
    setError(null);
    try {
      if (options.profile === "session") await api.post("/auth/reset-password", { token, newPassword: password });
      else await api.post("/api/auth/local/reset-password", { token, password });
      // The token has done its work: keep it out of the history.
      history.replaceState(null, "", "/reset-password");
      setDone(true);
    } catch (err) {
      const refusal = linkRefusal(err);
      if (refusal) setGone(refusal);
      else setError(explainPasswordError(err));
    } finally {
      setBusy(false);
    }
  };

  if (done || gone)
    return (
      <main class="auth-page" id="main">
        <div class="auth-card" role={done ? "status" : "alert"}>
          <h1 id="reset-title">{done ? "Your password has been changed" : "This link cannot be used"}</h1>
          <p>
            {done
              ? "Every session of your account has ended. Sign in with the new password."
              : `${gone} Ask for a new link: a link works once, and a "forgot password" link for 30 minutes.`}
          </p>
          <a class="button primary wide" href={done ? "/login" : "/forgot-password"} onClick={onLinkClick}>
            {done ? "Sign in" : "Ask for a new link"}
          </a>
        </div>
      </main>
    );

  return (
    <main class="auth-page" id="main">
      <form class="auth-card" onSubmit={submit} aria-labelledby="reset-title">
        <h1 id="reset-title">Set a new password</h1>
        <NewPasswordFields
          idPrefix="reset"
          password={password}
          repeat={repeat}
          onPassword={setPassword}
          onRepeat={setRepeat}
        />
        <FormError error={error} />
        <button type="submit" class="primary wide" disabled={busy}>
          Set the password
        </button>
      </form>
    </main>
  );
}
