import { useEffect, useState } from "preact/hooks";
import { api, describeError } from "../api/client.ts";
import type { Member, Organization } from "../api/types.ts";
import { navigate } from "../app/router.ts";
import { activeMembership, hasTeams, managesMembers, refreshProfile, session } from "../app/session.ts";
import { Shell } from "../app/shell.tsx";
import { useStore } from "../app/store.ts";
import { FormError } from "../ui/form.tsx";
import { notify, notifyError } from "../ui/notices.tsx";
import { Invitations } from "./invitations.tsx";
import { AddMemberForm, MemberList } from "./members.tsx";
import { OrganizationNav } from "./organization-nav.tsx";

function RenameForm(props: { id: string; name: string }) {
  const [name, setName] = useState(props.name);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setName(props.name), [props.name]);
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      const org = await api.put<Organization>(`/api/organizations/${encodeURIComponent(props.id)}`, { name });
      notify(`The organization is now called ${org.name}.`);
      await refreshProfile();
    } catch (err) {
      setError(describeError(err));
    }
  };
  return (
    <form class="inline-form" onSubmit={submit} aria-label="Rename the organization">
      <div class="field">
        <label for="org-name">Organization name</label>
        <input id="org-name" required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </div>
      <button type="submit" disabled={name.trim() === props.name || !name.trim()}>
        Rename
      </button>
      <FormError error={error} />
    </form>
  );
}

/** Owners: members must use two-factor to open the organization in a browser (API tokens unaffected). */
function TwoFactorRule(props: { id: string; required: boolean }) {
  const [error, setError] = useState<string | null>(null);
  const toggle = async (required: boolean) => {
    setError(null);
    try {
      await api.put<Organization>(`/api/organizations/${encodeURIComponent(props.id)}`, {
        require_two_factor: required,
      });
      notify(
        required ? "Members must now use two-factor authentication." : "Two-factor authentication is optional now.",
      );
      await refreshProfile();
    } catch (err) {
      setError(describeError(err));
    }
  };
  return (
    <section class="card" aria-labelledby="org-security-title">
      <h2 id="org-security-title">Security</h2>
      <label class="checkbox">
        <input type="checkbox" checked={props.required} onChange={(e) => toggle(e.currentTarget.checked)} />
        Members must use two-factor authentication
      </label>
      <p class="muted">
        A member without it is sent to turn it on before opening this organization. API tokens keep working.
      </p>
      <FormError error={error} />
    </section>
  );
}

/**
 * The active organization: everyone sees its members; owners add, change, remove and invite, and rename it.
 * Editors and viewers see the list and nothing to manage with.
 */
export function OrganizationPage() {
  const { profile } = useStore(session);
  const membership = activeMembership(profile);
  const [members, setMembers] = useState<Member[] | null>(null);
  const owner = managesMembers(membership?.role);
  const base = membership ? `/api/organizations/${encodeURIComponent(membership.organization_id)}` : "";

  const load = () =>
    api
      .get<Member[]>(`${base}/members`)
      .then(setMembers)
      .catch((err) => {
        setMembers([]);
        notifyError(err);
      });
  useEffect(() => {
    if (base) load();
  }, [base]);

  if (!membership)
    return (
      <Shell>
        <main class="page narrow" id="main">
          <h1>Organization</h1>
          <p>You are not a member of any organization.</p>
        </main>
      </Shell>
    );
  return (
    <Shell>
      <main class="page" id="main">
        <div class="page-head">
          <h1>{membership.organization_name}</h1>
          <span class="role-badge">your role: {membership.role}</span>
        </div>
        <OrganizationNav />
        {owner ? <RenameForm id={membership.organization_id} name={membership.organization_name} /> : null}
        {membership.role === "owner" ? (
          <TwoFactorRule id={membership.organization_id} required={membership.requires_two_factor} />
        ) : membership.requires_two_factor ? (
          <p class="muted">Members of this organization must use two-factor authentication.</p>
        ) : null}
        <section aria-labelledby="members-title" class="card">
          <h2 id="members-title">Members</h2>
          {!owner ? (
            <p class="muted">
              Only {hasTeams() ? "owners and admins" : "owners"} add, change or remove members and send invitations.
            </p>
          ) : null}
          {owner ? <AddMemberForm base={base} onAdded={load} /> : null}
          {members === null ? (
            <p aria-busy="true">Loading members…</p>
          ) : (
            <MemberList
              base={base}
              members={members}
              manage={owner}
              selfId={profile?.id}
              onChanged={async (left) => {
                if (left) {
                  await refreshProfile();
                  navigate("/");
                } else {
                  load();
                  refreshProfile();
                }
              }}
            />
          )}
        </section>
        {owner ? <Invitations base={base} /> : null}
      </main>
    </Shell>
  );
}
