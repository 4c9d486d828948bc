import { useEffect, useState } from "preact/hooks";
import { api, describeError } from "../api/client.ts";
import type { Invitation, IssuedInvitation, MemberRole } from "../api/types.ts";
import { readerRole } from "../app/session.ts";
import { CopyBlock, formatDate } from "../ui/copy.tsx";
import { ConfirmDialog, Dialog } from "../ui/dialog.tsx";
import { FormError } from "../ui/form.tsx";
import { notify, notifyError } from "../ui/notices.tsx";
import { RoleSelect } from "./members.tsx";

type DeliveryMode = "both" | "email" | "manual";

const STATUS_WORDS: Record<string, string> = {
  active: "waiting",
  expired: "expired (resend to renew)",
  accepted: "accepted",
  revoked: "withdrawn",
};

/** What became of the e-mail, in words, and the one-time link when the server answered it. */
function IssuedDialog(props: { issued: IssuedInvitation; onClose: () => void }) {
  const { issued } = props;
  const sent = issued.sent_at !== null;
  let outcome: string;
  if (issued.delivery_mode === "manual")
    outcome = "No e-mail was sent, as asked. Give the link below to the invitee yourself.";
  else if (sent)
    outcome =
      issued.delivery_kind === "onboarding"
        ? `An e-mail went to ${issued.email} to set up an account, and the invitation e-mail with it.`
        : `The invitation e-mail was sent to ${issued.email}.`;
  else
    outcome = `The e-mail to ${issued.email} could not be sent (the server's mail is not configured or not reachable).${
      issued.accept_url ? " Give the link below to the invitee yourself." : " Resend it later, or resend it as a link."
    }`;
  return (
    <Dialog title="Invitation created" onClose={props.onClose} wide>
      <div class="dialog-body">
        <p role="status" class={sent || issued.delivery_mode === "manual" ? "outcome ok" : "outcome warn"}>
          {outcome}
        </p>
        <p>
          Role <strong>{issued.role}</strong>; the link works once and expires on{" "}
          <strong>{formatDate(issued.expires_at)}</strong>.
        </p>
        {issued.accept_url ? (
          <CopyBlock id="invitation-link" label="Invitation link" text={issued.accept_url} copyLabel="Copy link" />
        ) : null}
      </div>
      <footer class="dialog-actions">
        <button type="button" class="primary" onClick={props.onClose}>
          Done
        </button>
      </footer>
    </Dialog>
  );
}

/** The owner's invitations: invite by e-mail with a role, the pending ones with expiry, resend and withdraw. */
export function Invitations(props: { base: string }) {
  const [list, setList] = useState<Invitation[] | null>(null);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<MemberRole>(readerRole());
  const [mode, setMode] = useState<DeliveryMode>("both");
  const [error, setError] = useState<string | null>(null);
  const [issued, setIssued] = useState<IssuedInvitation | null>(null);
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const [busy, setBusy] = useState(false);

  const load = () =>
    api
      .get<Invitation[]>(`${props.base}/invitations`)
      .then(setList)
      .catch((err) => {
        setList([]);
        notifyError(err);
      });
  useEffect(() => {
    load();
  }, [props.base]);

  const invite = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const out = await api.post<IssuedInvitation>(`${props.base}/invitations`, {
        email: email.trim(),
        role,
        delivery_mode: mode,
      });
      setIssued(out);
      setEmail("");
      load();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };
  const resend = async (inv: Invitation) => {
    try {
      setIssued(await api.post<IssuedInvitation>(`${props.base}/invitations/${encodeURIComponent(inv.id)}/resend`, {}));
      load();
    } catch (err) {
      notifyError(err);
    }
  };
  const revoke = async (inv: Invitation) => {
    try {
      await api.del(`${props.base}/invitations/${encodeURIComponent(inv.id)}`);
      notify(`The invitation of ${inv.email} was withdrawn; its link no longer works.`);
      load();
    } catch (err) {
      notifyError(err);
    }
  };

  return (
    <section aria-labelledby="invitations-title" class="card">
      <h2 id="invitations-title">Invitations</h2>
      <form class="inline-form" onSubmit={invite} aria-label="Invite by e-mail">
        <div class="field">
          <label for="invite-email">E-mail address</label>
          <input
            id="invite-email"
            type="email"
            required
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </div>
        <RoleSelect id="invite-role" value={role} onChange={setRole} />
        <div class="field">
          <label for="invite-mode">Delivery</label>
          <select id="invite-mode" value={mode} onChange={(e) => setMode(e.currentTarget.value as DeliveryMode)}>
            <option value="both">E-mail, and show me the link</option>
            <option value="email">E-mail only</option>
            <option value="manual">Link only (no e-mail)</option>
          </select>
        </div>
        <button type="submit" class="primary" disabled={busy}>
          Invite
        </button>
        <FormError error={error} />
      </form>
      {list === null ? (
        <p aria-busy="true">Loading invitations…</p>
      ) : list.length === 0 ? (
        <p class="empty">No pending invitations.</p>
      ) : (
        <table class="table data-table" aria-label="Pending invitations">
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">Status</th>
              <th scope="col">Sent</th>
              <th scope="col">Expires</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.map((inv) => (
              <tr key={inv.id}>
                <td>{inv.email}</td>
                <td>{inv.role}</td>
                <td>{STATUS_WORDS[inv.status] ?? inv.status}</td>
                <td>
                  {inv.sent_at ? formatDate(inv.sent_at) : inv.delivery_mode === "manual" ? "link only" : "not sent"}
                </td>
                <td>{formatDate(inv.expires_at)}</td>
                <td class="row-actions">
                  <button
                    type="button"
                    onClick={() => resend(inv)}
                    aria-label={`Resend the invitation of ${inv.email}`}
                  >
                    Resend
                  </button>
                  <button
                    type="button"
                    class="danger"
                    onClick={() => setRevoking(inv)}
                    aria-label={`Withdraw the invitation of ${inv.email}`}
                  >
                    Withdraw
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {issued ? <IssuedDialog issued={issued} onClose={() => setIssued(null)} /> : null}
      {revoking ? (
        <ConfirmDialog
          title="Withdraw invitation"
          danger
          confirmLabel="Withdraw"
          message={<p>The link sent to {revoking.email} stops working.</p>}
          onAnswer={(yes) => {
            const inv = revoking;
            setRevoking(null);
            if (yes) revoke(inv);
          }}
        />
      ) : null}
    </section>
  );
}
