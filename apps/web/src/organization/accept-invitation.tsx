import { useEffect, useState } from "preact/hooks";
import { ApiError, api, describeError } from "../api/client.ts";
import type { AcceptedInvitation, InvitationPreview } from "../api/types.ts";
import { navigate, onLinkClick } from "../app/router.ts";
import { refreshProfile, session, signOut } from "../app/session.ts";
import { Shell } from "../app/shell.tsx";
import { useStore } from "../app/store.ts";
import { formatDate } from "../ui/copy.tsx";
import { CreateAccountFromInvitation, type Joined } from "./create-account.tsx";

type Refusal = { title: string; text: string; otherAccount?: boolean };

/** Each refusal of the server (404 link, 403 another address or unverified, 410 used/withdrawn/expired) in words. */
function refusalOf(err: unknown): Refusal {
  const text = describeError(err);
  if (!(err instanceof ApiError)) return { title: "The invitation could not be opened", text };
  if (err.status === 404)
    return {
      title: "This link is not valid",
      text: "Check that the whole link was copied, or ask the owner for a new invitation.",
    };
  if (err.status === 403 && /another e-mail/i.test(text))
    return {
      title: "This invitation is for another e-mail address",
      text: `${text}. You are signed in with a different account.`,
      otherAccount: true,
    };
  if (err.status === 403) return { title: "The invitation cannot be accepted yet", text };
  if (err.status === 410) {
    if (/accepted/i.test(text)) return { title: "This invitation was already used", text };
    if (/expired/i.test(text)) return { title: "This invitation has expired", text };
    if (/withdrawn|revoked/i.test(text)) return { title: "This invitation was withdrawn", text };
    return { title: "This invitation can no longer be used", text };
  }
  return { title: "The invitation could not be opened", text };
}

/**
 * The page of the link in the invitation e-mail. Signed out: create an account from the link, or sign in. Signed
 * in: preview, then accept.
 */
export function AcceptInvitationPage(props: { token: string }) {
  const { profile } = useStore(session);
  const [joined, setJoined] = useState<Joined | null>(null);
  if (joined) return <JoinedPage joined={joined} />;
  if (!profile) return <CreateAccountFromInvitation token={props.token} onJoined={setJoined} />;
  return <SignedInInvitation token={props.token} onJoined={setJoined} />;
}

function JoinedPage(props: { joined: Joined }) {
  const { organizationName, role, alreadyMember } = props.joined;
  return (
    <Shell>
      <main class="page narrow" id="main">
        <h1>Invitation</h1>
        <div class="card" role="status">
          <p>
            {alreadyMember
              ? `You were already a member of ${organizationName}; your role stays ${role}.`
              : `You joined ${organizationName} as ${role}.`}
          </p>
          <p>
            <a href="/" class="button primary" onClick={onLinkClick}>
              Open its workspaces
            </a>
          </p>
        </div>
      </main>
    </Shell>
  );
}

function SignedInInvitation(props: { token: string; onJoined(joined: Joined): void }) {
  const { profile } = useStore(session);
  const [preview, setPreview] = useState<InvitationPreview | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [busy, setBusy] = useState(false);
  const path = `/api/invitations/${encodeURIComponent(props.token)}`;

  useEffect(() => {
    api
      .get<InvitationPreview>(path)
      .then(setPreview)
      .catch((err) => setRefusal(refusalOf(err)));
  }, [path]);

  const accept = async () => {
    setBusy(true);
    try {
      const out = await api.post<AcceptedInvitation>(`${path}/accept`);
      await api.post(`/api/organizations/${encodeURIComponent(out.organization_id)}/activate`).catch(() => undefined);
      await refreshProfile();
      props.onJoined({
        organizationName: preview?.organization.name ?? "the organization",
        role: out.role,
        alreadyMember: out.already_member,
      });
    } catch (err) {
      setRefusal(refusalOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Shell>
      <main class="page narrow" id="main">
        <h1>Invitation</h1>
        {refusal ? (
          <div class="card" role="alert">
            <h2>{refusal.title}</h2>
            <p>{refusal.text}</p>
            {refusal.otherAccount ? (
              <p>
                Signed in as <strong>{profile?.username}</strong>
                {profile?.email ? ` (${profile.email})` : ""}.{" "}
                <button
                  type="button"
                  onClick={async () => {
                    const back = window.location.pathname;
                    await signOut();
                    navigate(`/login?from=${encodeURIComponent(back)}`, { replace: true });
                  }}
                >
                  Sign in with another account
                </button>
              </p>
            ) : (
              <p>
                <a href="/" onClick={onLinkClick}>
                  Go to your workspaces
                </a>
              </p>
            )}
          </div>
        ) : preview ? (
          <div class="card">
            <p>
              {preview.invited_by ? `${preview.invited_by} invites you` : "You are invited"} to join{" "}
              <strong>{preview.organization.name}</strong> as <strong>{preview.role}</strong>.
            </p>
            <p class="muted">
              Sent to {preview.email}; valid until {formatDate(preview.expires_at)}.
            </p>
            <div class="row-actions">
              <button type="button" class="primary" disabled={busy} onClick={accept}>
                Accept invitation
              </button>
              <a href="/" class="button" onClick={onLinkClick}>
                Not now
              </a>
            </div>
          </div>
        ) : (
          <p aria-busy="true">Opening the invitation…</p>
        )}
      </main>
    </Shell>
  );
}
