import { useEffect, useState } from "preact/hooks";
import { api, describeError } from "../api/client.ts";
import type { Member, Team, Workspace } from "../api/types.ts";
import { activeMembership, managesMembers, session } from "../app/session.ts";
import { Shell } from "../app/shell.tsx";
import { useStore } from "../app/store.ts";
import { ConfirmDialog, Dialog } from "../ui/dialog.tsx";
import { DialogActions, FormError, TextField } from "../ui/form.tsx";
import { notify, notifyError } from "../ui/notices.tsx";
import { OrganizationNav } from "./organization-nav.tsx";

/** The path of the organization's teams API. */
export const teamsPath = (organizationId: string) => `/api/organizations/${encodeURIComponent(organizationId)}/teams`;

function CreateTeamForm(props: { base: string; onCreated: () => void }) {
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      const team = await api.post<Team>(props.base, { name: name.trim() });
      notify(`Team ${team.name} was created.`);
      setName("");
      props.onCreated();
    } catch (err) {
      setError(describeError(err));
    }
  };
  return (
    <form class="inline-form" onSubmit={submit} aria-label="Create a team">
      <TextField id="team-name" label="Team name" required maxLength={200} value={name} onValue={setName} />
      <button type="submit" class="primary" disabled={!name.trim()}>
        Create team
      </button>
      <FormError error={error} />
    </form>
  );
}

function RenameTeamDialog(props: { base: string; team: Team; onClose: () => void; onSaved: () => void }) {
  const [name, setName] = useState(props.team.name);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      const team = await api.put<Team>(`${props.base}/${encodeURIComponent(props.team.id)}`, { name: name.trim() });
      notify(`The team is now called ${team.name}.`);
      props.onSaved();
    } catch (err) {
      setError(describeError(err));
    }
  };
  return (
    <Dialog title={`Rename team ${props.team.name}`} onClose={props.onClose}>
      <form class="dialog-body" onSubmit={submit}>
        <TextField id="team-rename" label="New name" required maxLength={200} value={name} onValue={setName} />
        <FormError error={error} />
        <DialogActions onCancel={props.onClose} submit="Rename" />
      </form>
    </Dialog>
  );
}

/** One team: its members (added from the organization's members) and the workspaces only its members see. */
function TeamCard(props: {
  base: string;
  team: Team;
  members: Member[];
  workspaces: Workspace[];
  manage: boolean;
  onChanged: () => void;
}) {
  const { team } = props;
  const [adding, setAdding] = useState("");
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const path = `${props.base}/${encodeURIComponent(team.id)}`;
  const inTeam = props.members.filter((m) => team.member_ids.includes(m.userId));
  const others = props.members.filter((m) => !team.member_ids.includes(m.userId));
  // Assigned workspaces the caller cannot see (a member outside the team) are counted, never named.
  const workspaceNames = props.workspaces.filter((w) => team.workspace_ids.includes(w.id)).map((w) => w.name);
  const unseen = team.workspace_ids.length - workspaceNames.length;
  if (unseen > 0)
    workspaceNames.push(unseen === 1 ? "one workspace you cannot see" : `${unseen} workspaces you cannot see`);
  const titleId = `team-${team.id}`;

  const act = async (what: () => Promise<unknown>, done: string) => {
    setError(null);
    try {
      await what();
      notify(done);
      props.onChanged();
    } catch (err) {
      setError(describeError(err));
    }
  };
  const add = (e: Event) => {
    e.preventDefault();
    const member = props.members.find((m) => m.userId === adding);
    if (!member) return;
    setAdding("");
    act(
      () => api.put(`${path}/members/${encodeURIComponent(member.userId)}`),
      `${member.username} joined ${team.name}.`,
    );
  };

  return (
    <section class="card" aria-labelledby={titleId} data-team={team.name}>
      <div class="page-head">
        <h2 id={titleId}>{team.name}</h2>
        {props.manage ? (
          <div class="row-actions">
            <button type="button" onClick={() => setRenaming(true)} aria-label={`Rename team ${team.name}`}>
              Rename
            </button>
            <button
              type="button"
              class="danger"
              onClick={() => setDeleting(true)}
              aria-label={`Delete team ${team.name}`}
            >
              Delete
            </button>
          </div>
        ) : null}
      </div>
      <p class="muted">
        {workspaceNames.length
          ? `Workspaces only this team (and owners and admins) can see: ${workspaceNames.join(", ")}.`
          : "No workspace is assigned to this team yet; assign one from the workspace list."}
      </p>
      <FormError error={error} />
      {inTeam.length === 0 ? (
        <p class="empty">No members yet.</p>
      ) : (
        <table class="table data-table" aria-label={`Members of ${team.name}`}>
          <thead>
            <tr>
              <th scope="col">Username</th>
              <th scope="col">Name</th>
              {props.manage ? <th scope="col">Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {inTeam.map((m) => (
              <tr key={m.userId} data-username={m.username}>
                <td>{m.username}</td>
                <td>{m.name}</td>
                {props.manage ? (
                  <td>
                    <button
                      type="button"
                      class="danger"
                      aria-label={`Remove ${m.username} from ${team.name}`}
                      onClick={() =>
                        act(
                          () => api.del(`${path}/members/${encodeURIComponent(m.userId)}`),
                          `${m.username} left ${team.name}.`,
                        )
                      }
                    >
                      Remove
                    </button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {props.manage ? (
        others.length ? (
          <form class="inline-form" onSubmit={add} aria-label={`Add a member to ${team.name}`}>
            <div class="field">
              <label for={`${titleId}-add`}>Organization member</label>
              <select id={`${titleId}-add`} value={adding} onChange={(e) => setAdding(e.currentTarget.value)}>
                <option value="">Choose a member…</option>
                {others.map((m) => (
                  <option key={m.userId} value={m.userId}>
                    {m.name ? `${m.username} (${m.name})` : m.username}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" disabled={!adding}>
              Add to team
            </button>
          </form>
        ) : (
          <p class="muted">Every member of the organization is in this team.</p>
        )
      ) : null}
      {renaming ? (
        <RenameTeamDialog
          base={props.base}
          team={team}
          onClose={() => setRenaming(false)}
          onSaved={() => {
            setRenaming(false);
            props.onChanged();
          }}
        />
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title="Delete team"
          danger
          confirmLabel="Delete team"
          message={
            <p>
              Delete the team <strong>{team.name}</strong>? Its members stay in the organization.
              {team.workspace_ids.length
                ? " Workspaces assigned to no other team become visible to the whole organization."
                : ""}
            </p>
          }
          onAnswer={(yes) => {
            setDeleting(false);
            if (yes) act(() => api.del(path), `Team ${team.name} was deleted.`);
          }}
        />
      ) : null}
    </section>
  );
}

/**
 * The organization's teams (session profile): owners and admins create, rename and delete teams and choose their
 * members among the organization's members; members see the teams and who is in them.
 */
export function TeamsPage() {
  const { profile } = useStore(session);
  const membership = activeMembership(profile);
  const [teams, setTeams] = useState<Team[] | null>(null);
  const [members, setMembers] = useState<Member[]>([]);
  const [workspaces, setWorkspaces] = useState<Workspace[]>([]);
  const manage = managesMembers(membership?.role);
  const base = membership ? teamsPath(membership.organization_id) : "";

  const load = async () => {
    try {
      const org = `/api/organizations/${encodeURIComponent(membership?.organization_id ?? "")}`;
      const [t, m, w] = await Promise.all([
        api.get<Team[]>(base),
        api.get<Member[]>(`${org}/members`),
        api.get<Workspace[]>("/api/workspaces"),
      ]);
      setTeams(t);
      setMembers(m);
      setWorkspaces(w);
    } catch (err) {
      setTeams([]);
      notifyError(err);
    }
  };
  useEffect(() => {
    if (base) load();
  }, [base]);

  if (!membership)
    return (
      <Shell>
        <main class="page narrow" id="main">
          <h1>Teams</h1>
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
        <p>
          A workspace assigned to teams is visible only to their members and to owners and admins; a workspace without
          teams is visible to the whole organization.
        </p>
        {manage ? (
          <CreateTeamForm base={base} onCreated={load} />
        ) : (
          <p class="muted">Only owners and admins create teams and change who is in them.</p>
        )}
        {teams === null ? (
          <p aria-busy="true">Loading teams…</p>
        ) : teams.length === 0 ? (
          <p class="empty">No teams yet{manage ? "" : "; an owner or admin can create them"}.</p>
        ) : (
          teams.map((t) => (
            <TeamCard
              key={t.id}
              base={base}
              team={t}
              members={members}
              workspaces={workspaces}
              manage={manage}
              onChanged={load}
            />
          ))
        )}
      </main>
    </Shell>
  );
}
