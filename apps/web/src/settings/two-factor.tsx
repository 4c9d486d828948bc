import { useEffect, useState } from "preact/hooks";
import { describeError } from "../api/client.ts";
import { authOptions, refreshProfile } from "../app/session.ts";
import { FormError } from "../ui/form.tsx";
import { notify } from "../ui/notices.tsx";
import { QrCode } from "../ui/qr-code.tsx";
import { RecoveryCodeList } from "./recovery-codes.tsx";
import {
  confirmEnrolment,
  disableTwoFactor,
  type Enrolment,
  getTwoFactorStatus,
  newRecoveryCodes,
  type Proof,
  startEnrolment,
  type TwoFactorStatus,
} from "./two-factor-api.ts";

/** The base32 key in groups of four, as people type it into an app. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, "$1 ").trim();

/** "Two-factor authentication" on the settings page: enrol (QR code and key), recovery codes, regenerate, disable. */
export function TwoFactorSection() {
  const [status, setStatus] = useState<TwoFactorStatus | null>(null);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [action, setAction] = useState<"enrol" | "disable" | "regenerate" | null>(null);
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = () => getTwoFactorStatus().then(setStatus, (err) => setError(describeError(err)));
  useEffect(() => {
    load();
  }, []);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };
  const reset = () => {
    setAction(null);
    setPassword("");
    setCode("");
  };
  // The session profile proves disable and new codes with the password; the local one also takes a code.
  const proof = (): Proof => (password ? { password } : { code });

  const start = (e: Event) => {
    e.preventDefault();
    run(async () => {
      setEnrolment(await startEnrolment(password));
      reset();
    });
  };
  const confirm = (e: Event) => {
    e.preventDefault();
    if (!enrolment) return;
    run(async () => {
      setCodes(await confirmEnrolment(code.trim(), enrolment));
      setEnrolment(null);
      reset();
      notify("Two-factor authentication is on.");
      await Promise.all([load(), refreshProfile()]);
    });
  };
  const change = (e: Event) => {
    e.preventDefault();
    run(async () => {
      if (action === "disable") {
        await disableTwoFactor(proof());
        notify("Two-factor authentication is off.");
        await refreshProfile();
      } else setCodes(await newRecoveryCodes(proof()));
      reset();
      await load();
    });
  };

  const local = authOptions.get().profile !== "session";
  return (
    <section class="card" aria-labelledby="two-factor-title" id="two-factor">
      <h2 id="two-factor-title">Two-factor authentication</h2>
      {status?.required_by.length && !status.enabled ? (
        <p class="notice-inline" role="alert">
          {status.required_by.map((o) => o.organization_name).join(", ")} requires two-factor authentication. Turn it on
          to continue working there.
        </p>
      ) : null}
      {codes ? (
        <RecoveryCodeList codes={codes} onDone={() => setCodes(null)} />
      ) : enrolment ? (
        <form onSubmit={confirm} aria-label="Confirm two-factor authentication">
          <p>Scan this QR code with your authenticator app, or type the key in by hand.</p>
          <QrCode text={enrolment.uri} label="QR code for your authenticator app" />
          <p>
            Key: <code class="secret-key">{grouped(enrolment.secret)}</code>
          </p>
          <div class="field">
            <label for="tf-confirm-code">Code from the app</label>
            <input
              id="tf-confirm-code"
              inputMode="numeric"
              autocomplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              required
              value={code}
              onInput={(e) => setCode(e.currentTarget.value)}
            />
          </div>
          <FormError error={error} />
          <div class="actions">
            <button type="submit" class="primary" disabled={busy}>
              Turn on
            </button>
            <button type="button" onClick={() => setEnrolment(null)}>
              Cancel
            </button>
          </div>
        </form>
      ) : status === null ? (
        <p aria-busy="true">Loading…</p>
      ) : (
        <>
          <p>
            {status.enabled
              ? `On: signing in asks for a code from your authenticator app. ${status.recovery_codes_left} recovery codes left.`
              : "Off: signing in asks only for your password."}
          </p>
          {action ? (
            <form onSubmit={action === "enrol" ? start : change} aria-label="Confirm it is you">
              <div class="field">
                <label for="tf-password">Your password</label>
                <input
                  id="tf-password"
                  type="password"
                  autocomplete="current-password"
                  required={action === "enrol" || !local || !code}
                  value={password}
                  onInput={(e) => setPassword(e.currentTarget.value)}
                />
              </div>
              {action !== "enrol" && local ? (
                <div class="field">
                  <label for="tf-proof-code">Or a code from the app, or a recovery code</label>
                  <input
                    id="tf-proof-code"
                    autocomplete="one-time-code"
                    value={code}
                    onInput={(e) => setCode(e.currentTarget.value)}
                  />
                </div>
              ) : null}
              <FormError error={error} />
              <div class="actions">
                <button type="submit" class="primary" disabled={busy}>
                  {action === "enrol" ? "Continue" : action === "disable" ? "Turn off" : "Make new codes"}
                </button>
                <button type="button" onClick={reset}>
                  Cancel
                </button>
              </div>
            </form>
          ) : (
            <div class="actions">
              {status.enabled ? (
                <>
                  <button type="button" onClick={() => setAction("regenerate")}>
                    New recovery codes
                  </button>
                  <button type="button" class="danger" onClick={() => setAction("disable")}>
                    Turn off two-factor
                  </button>
                </>
              ) : (
                <button type="button" class="primary" onClick={() => setAction("enrol")}>
                  Turn on two-factor
                </button>
              )}
            </div>
          )}
          {!action ? <FormError error={error} /> : null}
        </>
      )}
    </section>
  );
}
