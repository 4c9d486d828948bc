import { useEffect, useState } from "preact/hooks";
import { api, describeError } from "../api/client.ts";
import type { UserSession } from "../api/types.ts";
import { signOut } from "../app/session.ts";
import { formatDate } from "../ui/copy.tsx";
import { ConfirmDialog } from "../ui/dialog.tsx";
import { notify, notifyError } from "../ui/notices.tsx";

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\bOPR\//, "Opera"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\b(?:Headless)?Chrom(?:e|ium)\/|\bCriOS\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
];
const SYSTEMS: [RegExp, string][] = [
  [/\bAndroid\b/, "Android"],
  [/\biPhone\b|\biPad\b/, "iOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bLinux\b/, "Linux"],
];

/** "Chrome on Linux" from a user agent; the raw text when neither is recognised (a script, an MCP host…). */
export function describeAgent(agent: string | null): string {
  if (!agent) return "Unknown device";
  const browser = BROWSERS.find(([re]) => re.test(agent))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(agent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? agent.slice(0, 80);
}

/**
 * The signed-in user's sessions (session profile): where and when each began, until when it lasts, this browser's
 * marked. Another is revoked after a confirmation (that device is signed out at its next request); this one is
 * ended by signing out.
 */
export function Sessions() {
  const [list, setList] = useState<UserSession[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<UserSession | null>(null);

  const load = () =>
    api
      .get<{ sessions: UserSession[] }>("/auth/sessions")
      .then((r) => {
        // This browser first, then the others newest first (as the server lists them).
        setList([...r.sessions].sort((a, b) => Number(b.current) - Number(a.current)));
        setError(null);
      })
      .catch((err) => {
        setList([]);
        setError(`Your sessions could not be listed: ${describeError(err)}`);
      });
  useEffect(() => {
    load();
  }, []);

  const revoke = async (s: UserSession) => {
    try {
      await api.del(`/auth/sessions/${encodeURIComponent(s.id)}`);
      notify(`The session on ${describeAgent(s.user_agent)} was revoked; that device is signed out.`);
    } catch (err) {
      notifyError(err);
    }
    load();
  };

  return (
    <section class="card" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Sessions</h2>
      <p class="muted">
        Where you are signed in. Revoke a session you do not recognise or no longer use: that device is signed out at
        its next request.
      </p>
      {error ? (
        <p class="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {list === null ? (
        <p aria-busy="true">Loading sessions…</p>
      ) : list.length === 0 ? (
        error ? null : (
          <p class="empty">No sessions.</p>
        )
      ) : (
        <table class="table data-table" aria-label="Sessions">
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col">Address</th>
              <th scope="col">Signed in</th>
              <th scope="col">Lasts until</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.map((s) => (
              <tr key={s.id} data-session={s.id} data-current={s.current ? "true" : undefined}>
                <td>
                  {describeAgent(s.user_agent)}
                  {s.current ? <span class="role-badge">This browser</span> : null}
                </td>
                <td>{s.ip_address ?? <span class="muted">not recorded</span>}</td>
                <td>{formatDate(s.created_at)}</td>
                <td>{formatDate(s.expires_at)}</td>
                <td>
                  {s.current ? (
                    <button type="button" onClick={() => signOut()}>
                      Sign out
                    </button>
                  ) : (
                    <button
                      type="button"
                      class="danger"
                      onClick={() => setRevoking(s)}
                      aria-label={`Revoke the session on ${describeAgent(s.user_agent)} signed in ${formatDate(s.created_at)}`}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {revoking ? (
        <ConfirmDialog
          title="Revoke session"
          danger
          confirmLabel="Revoke session"
          message={
            <p>
              The session on {describeAgent(revoking.user_agent)}
              {revoking.ip_address ? ` (${revoking.ip_address})` : ""}, signed in {formatDate(revoking.created_at)},
              ends now: that device is signed out at its next request. This browser stays signed in.
            </p>
          }
          onAnswer={(yes) => {
            const s = revoking;
            setRevoking(null);
            if (yes) revoke(s);
          }}
        />
      ) : null}
    </section>
  );
}
