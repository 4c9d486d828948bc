import { useState } from "preact/hooks";
import { api, describeError } from "../api/client.ts";
import type { Member, MemberRole } from "../api/types.ts";
import { memberRoles, readerRole } from "../app/session.ts";
import { ConfirmDialog } from "../ui/dialog.tsx";
import { FormError } from "../ui/form.tsx";
import { notify } from "../ui/notices.tsx";

const ROLE_WORDS: Record<string, string> = {
  owner: "Owner: manages members, invitations and the organization's name; edits everything",
  editor: "Editor: edits models, views and dashboards",
  viewer: "Viewer: reads models, views and dashboards",
};

/** A last-owner refusal (409 from the server) in words that say what to do instead. */
function explain(err: unknown, action: "remove" | "leave" | "demote"): string {
  const words = describeError(err);
  if (!/last owner/i.test(words)) return words;
  const what =
    action === "leave"
      ? "You cannot leave"
      : action === "remove"
        ? "This member cannot be removed"
        : "This role cannot be changed";
  return `${what}: every organization needs at least one owner. Make another member an owner first.`;
}

/**
 * The member list of one organization. `base` is the API path of the organization (an owner's own organization or
 * the platform administrator's view of any); `manage` decides whether the add, role and remove controls exist.
 */
export function MemberList(props: {
  base: string;
  members: Member[];
  manage: boolean;
  selfId?: string;
  onChanged: (left?: boolean) => void;
}) {
  const [removing, setRemoving] = useState<Member | null>(null);
  const [error, setError] = useState<string | null>(null);

  const changeRole = async (m: Member, role: MemberRole) => {
    setError(null);
    try {
      await api.put(`${props.base}/members/${encodeURIComponent(m.userId)}`, { role });
      notify(`${m.username} is now ${role}.`);
      props.onChanged();
    } catch (err) {
      setError(explain(err, "demote"));
      props.onChanged();
    }
  };
  const remove = async (m: Member) => {
    setError(null);
    const self = m.userId === props.selfId;
    try {
      await api.del(`${props.base}/members/${encodeURIComponent(m.userId)}`);
      notify(self ? "You left the organization." : `${m.username} was removed.`);
      props.onChanged(self);
    } catch (err) {
      setError(explain(err, self ? "leave" : "remove"));
    }
  };

  return (
    <>
      <FormError error={error} />
      <table class="table data-table" aria-label="Members">
        <thead>
          <tr>
            <th scope="col">Username</th>
            <th scope="col">Name</th>
            <th scope="col">Role</th>
            {props.manage ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {props.members.map((m) => (
            <tr key={m.userId} data-username={m.username}>
              <td>
                {m.username}
                {m.userId === props.selfId ? <span class="role-badge">you</span> : null}
              </td>
              <td>{m.name}</td>
              <td>
                {props.manage ? (
                  <select
                    aria-label={`Role of ${m.username}`}
                    value={m.role}
                    onChange={(e) => changeRole(m, e.currentTarget.value as MemberRole)}
                  >
                    {memberRoles().map((r) => (
                      <option key={r} value={r}>
                        {r}
                      </option>
                    ))}
                  </select>
                ) : (
                  <span class="role-badge">{m.role}</span>
                )}
              </td>
              {props.manage ? (
                <td>
                  <button
                    type="button"
                    class="danger"
                    onClick={() => setRemoving(m)}
                    aria-label={m.userId === props.selfId ? "Leave the organization" : `Remove ${m.username}`}
                  >
                    {m.userId === props.selfId ? "Leave" : "Remove"}
                  </button>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      {removing ? (
        <ConfirmDialog
          title={removing.userId === props.selfId ? "Leave the organization" : "Remove member"}
          danger
          confirmLabel={removing.userId === props.selfId ? "Leave" : "Remove"}
          message={
            <p>
              {removing.userId === props.selfId
                ? "You lose access to its workspaces and your API tokens for it stop working."
                : `${removing.username} loses access to the organization's workspaces; their API tokens for it stop working.`}
            </p>
          }
          onAnswer={(yes) => {
            const m = removing;
            setRemoving(null);
            if (yes) remove(m);
          }}
        />
      ) : null}
    </>
  );
}

/** Adds an existing account by its username. */
export function AddMemberForm(props: { base: string; onAdded: () => void }) {
  const [username, setUsername] = useState("");
  const [role, setRole] = useState<MemberRole>(readerRole());
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      const m = await api.post<Member>(`${props.base}/members`, { username: username.trim(), role });
      notify(`${m.username} was added as ${m.role}.`);
      setUsername("");
      props.onAdded();
    } catch (err) {
      setError(describeError(err));
    }
  };
  return (
    <form class="inline-form" onSubmit={submit} aria-label="Add a member">
      <div class="field">
        <label for="add-member-username">Username</label>
        <input
          id="add-member-username"
          required
          autocomplete="off"
          value={username}
          onInput={(e) => setUsername(e.currentTarget.value)}
        />
      </div>
      <RoleSelect id="add-member-role" value={role} onChange={setRole} />
      <button type="submit" class="primary">
        Add member
      </button>
      <FormError error={error} />
    </form>
  );
}

export function RoleSelect(props: { id: string; value: MemberRole; onChange: (r: MemberRole) => void }) {
  return (
    <div class="field">
      <label for={props.id}>Role</label>
      <select
        id={props.id}
        value={props.value}
        title={ROLE_WORDS[props.value]}
        onChange={(e) => props.onChange(e.currentTarget.value as MemberRole)}
      >
        {memberRoles().map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
    </div>
  );
}
