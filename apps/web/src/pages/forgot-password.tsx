import { useState } from "preact/hooks";
import { api, describeError } from "../api/client.ts";
import { onLinkClick } from "../app/router.ts";
import { authOptions } from "../app/session.ts";
import { useStore } from "../app/store.ts";
import { FormError } from "../ui/form.tsx";

/**
 * "Forgot password?": asks for the account's e-mail address. The answer is the same for every address (the server
 * never says whether an account uses it), so the page says what happens if one does.
 */
export function ForgotPasswordPage() {
  const options = useStore(authOptions);
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // The session profile's reset is better-auth's (behind /auth), the local one ours; both answer 202 alike.
      await api.post(
        options.profile === "session" ? "/auth/request-password-reset" : "/api/auth/local/forgot-password",
        { email },
      );
      setSent(true);
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="auth-page" id="main">
      {sent ? (
        <div class="auth-card" role="status">
          <h1 id="forgot-title">Check your e-mail</h1>
          <p>
            If an account uses <strong>{email}</strong>, an e-mail with a link to set a new password is on its way. The
            link works once and for 30 minutes.
          </p>
          <a class="button wide" href="/login" onClick={onLinkClick}>
            Back to sign-in
          </a>
        </div>
      ) : (
        <form class="auth-card" onSubmit={submit} aria-labelledby="forgot-title">
          <h1 id="forgot-title">Forgot your password?</h1>
          <p>Enter the e-mail address of your account. We will send you a link to set a new password.</p>
          <div class="field">
            <label for="forgot-email">E-mail address</label>
            <input
              id="forgot-email"
              type="email"
              autocomplete="email"
              required
              maxLength={254}
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value)}
            />
          </div>
          <FormError error={error} />
          <button type="submit" class="primary wide" disabled={busy}>
            Send the link
          </button>
          <a class="button wide" href="/login" onClick={onLinkClick}>
            Back to sign-in
          </a>
        </form>
      )}
    </main>
  );
}
