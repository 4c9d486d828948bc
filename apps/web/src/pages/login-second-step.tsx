import { useState } from "preact/hooks";
import { describeError } from "../api/client.ts";
import { completeSignIn } from "../settings/two-factor-api.ts";
import { FormError } from "../ui/form.tsx";

/** The sign-in page's second step: the authenticator app's code, or one of the recovery codes. */
export function SecondStep(props: { challenge: string | null; onDone(): Promise<void>; onRestart(): void }) {
  const [kind, setKind] = useState<"code" | "recovery">("code");
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await completeSignIn(props.challenge, kind, value.trim());
      await props.onDone();
    } catch (err) {
      setError(describeError(err));
      setBusy(false);
    }
  };
  const recovery = kind === "recovery";
  return (
    <form class="auth-card" onSubmit={submit} aria-labelledby="second-step-title">
      <h1 id="second-step-title">Two-factor authentication</h1>
      <p>
        {recovery
          ? "Enter one of your recovery codes. Each code works once."
          : "Enter the six-digit code from your authenticator app."}
      </p>
      <div class="field">
        <label for="second-step-code">{recovery ? "Recovery code" : "Authentication code"}</label>
        <input
          id="second-step-code"
          key={kind}
          autocomplete="one-time-code"
          inputMode={recovery ? "text" : "numeric"}
          maxLength={recovery ? 20 : 6}
          required
          value={value}
          onInput={(e) => setValue(e.currentTarget.value)}
        />
      </div>
      <FormError error={error} />
      <button type="submit" class="primary wide" disabled={busy}>
        {busy ? "Checking…" : "Verify"}
      </button>
      <button
        type="button"
        class="wide"
        onClick={() => {
          setKind(recovery ? "code" : "recovery");
          setValue("");
          setError(null);
        }}
      >
        {recovery ? "Use the authenticator app instead" : "Use a recovery code instead"}
      </button>
      <button type="button" class="link-button" onClick={props.onRestart}>
        Start over
      </button>
    </form>
  );
}
