import { useEffect, useState } from "preact/hooks";
import { api, describeError, upload } from "../api/client.ts";
import type { Team, Workspace, WorkspaceFromFile } from "../api/types.ts";
import { navigate, onLinkClick } from "../app/router.ts";
import { activeMembership, canEdit, hasTeams, managesMembers, refreshProfile, session } from "../app/session.ts";
import { Shell } from "../app/shell.tsx";
import { useStore } from "../app/store.ts";
import { teamsPath } from "../organization/teams-page.tsx";
import { visibleTo, WorkspaceTeamsDialog } from "../organization/workspace-teams.tsx";
import { ConfirmDialog, Dialog } from "../ui/dialog.tsx";
import { DialogActions, FormError, TextField } from "../ui/form.tsx";
import { ImportWarnings } from "../ui/import-warnings.tsx";
import { notify, notifyError } from "../ui/notices.tsx";

/** SPEC: a user without any membership sees a simple starter page instead of the workspace picker. */
function StarterHome() {
  const { profile } = useStore(session);
  if (!profile) return null;
  const admin = profile.role === "platform_admin";
  return (
    <main class="page narrow" id="main">
      <h1>Welcome, {profile.name || profile.username}</h1>
      {admin ? (
        <p>
          You administer this platform. Platform administrators have no access to organization content by design: create
          organizations, manage their members, plugins and site messages in{" "}
          <a href="/platform" onClick={onLinkClick}>
            Platform administration
          </a>
          , and add yourself as a member of an organization to model in it.
        </p>
      ) : (
        <>
          <p>You are not a member of any organization yet, so there are no workspaces to show.</p>
          <p>
            Organizations are created by the platform administrator. Ask the owner of your organization to add you by
            your username <strong>{profile.username}</strong>, or to invite you by e-mail; once you accept, your
            organization's workspaces appear here.
          </p>
        </>
      )}
      <p>
        <a href="/api/docs">REST API reference</a>
      </p>
    </main>
  );
}

function CreateWorkspaceDialog(props: { onClose: () => void; onCreated: (ws: Workspace) => void }) {
  const [name, setName] = useState("");
  // A workspace made from a file whose import reported warnings: they are shown before the workspace opens.
  const [imported, setImported] = useState<WorkspaceFromFile | null>(null);
  const [description, setDescription] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      let ws: Workspace;
      if (file) {
        const form = new FormData();
        form.set("name", name);
        if (description) form.set("description", description);
        form.set("file", file);
        setProgress(0);
        const created = await upload<WorkspaceFromFile>("/api/workspaces", form, setProgress);
        if (created.import.warnings.length) {
          setProgress(null);
          setImported(created);
          return;
        }
        ws = created;
      } else {
        ws = await api.post<Workspace>("/api/workspaces", { name, ...(description ? { description } : {}) });
      }
      props.onCreated(ws);
    } catch (err) {
      setProgress(null);
      setError(describeError(err));
    }
  };

  if (imported) {
    const open = () => props.onCreated(imported);
    return (
      <Dialog title="New workspace" onClose={open}>
        <div class="dialog-body">
          <p>
            The workspace <strong>{imported.name}</strong> was created from the file.
          </p>
          <ImportWarnings warnings={imported.import.warnings} />
          <footer class="dialog-actions">
            <button type="button" class="primary" onClick={open}>
              Open the workspace
            </button>
          </footer>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog title="New workspace" onClose={props.onClose}>
      <form class="dialog-body" onSubmit={submit}>
        <TextField id="ws-name" label="Name" required maxLength={200} value={name} onValue={setName} />
        <div class="field">
          <label for="ws-description">Description (optional)</label>
          <textarea id="ws-description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="ws-file">Start from an Open Exchange file (optional)</label>
          <input
            id="ws-file"
            type="file"
            accept=".xml,application/xml,text/xml"
            onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
          />
        </div>
        {progress !== null ? (
          <progress max={1} value={progress} aria-label="Upload progress">
            {Math.round(progress * 100)}%
          </progress>
        ) : null}
        <FormError error={error} />
        <DialogActions onCancel={props.onClose} submit="Create workspace" disabled={progress !== null} />
      </form>
    </Dialog>
  );
}

function RenameWorkspaceDialog(props: { ws: Workspace; onClose: () => void; onSaved: () => void }) {
  const [name, setName] = useState(props.ws.name);
  const [description, setDescription] = useState(props.ws.description ?? "");
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    try {
      await api.put(`/api/workspaces/${encodeURIComponent(props.ws.id)}`, { name, description: description || null });
      props.onSaved();
    } catch (err) {
      setError(describeError(err));
    }
  };
  return (
    <Dialog title="Rename workspace" onClose={props.onClose}>
      <form class="dialog-body" onSubmit={submit}>
        <TextField id="ws-rename" label="Name" required value={name} onValue={setName} />
        <div class="field">
          <label for="ws-redescribe">Description</label>
          <textarea id="ws-redescribe" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        </div>
        <FormError error={error} />
        <DialogActions onCancel={props.onClose} submit="Save" />
      </form>
    </Dialog>
  );
}

export async function openWorkspace(id: string): Promise<void> {
  navigate(`/workspaces/${encodeURIComponent(id)}`);
}

function WorkspacePicker() {
  const { profile } = useStore(session);
  const [list, setList] = useState<Workspace[] | null>(null);
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<Workspace | null>(null);
  const [deleting, setDeleting] = useState<Workspace | null>(null);
  const [assigning, setAssigning] = useState<Workspace | null>(null);
  // Session profile: the organization's teams, to say who sees each workspace (owners and admins assign them).
  const [teams, setTeams] = useState<Team[] | null>(null);
  const editable = canEdit(profile);
  const membership = activeMembership(profile);
  const assignsTeams = hasTeams() && managesMembers(membership?.role);

  const load = () => {
    if (hasTeams() && membership?.enabled)
      api
        .get<Team[]>(teamsPath(membership.organization_id))
        .then(setTeams)
        .catch(() => setTeams(null));
    return api
      .get<Workspace[]>("/api/workspaces")
      .then(setList)
      .catch((err) => {
        setList([]);
        notifyError(err);
      });
  };
  useEffect(() => {
    load();
  }, [profile?.active_organization_id]);

  const remove = async (ws: Workspace) => {
    try {
      await api.del(`/api/workspaces/${encodeURIComponent(ws.id)}`);
      notify(`Workspace '${ws.name}' deleted.`);
      await refreshProfile();
      load();
    } catch (err) {
      notifyError(err);
    }
  };

  return (
    <main class="page" id="main">
      <div class="page-head">
        <h1>Workspaces{membership ? ` of ${membership.organization_name}` : ""}</h1>
        {editable ? (
          <button type="button" class="primary" onClick={() => setCreating(true)}>
            New workspace
          </button>
        ) : null}
      </div>
      {membership && !membership.enabled ? (
        <p class="form-error" role="alert">
          This organization is suspended by the platform administrator; its workspaces cannot be opened.
        </p>
      ) : null}
      {list === null ? (
        <p aria-busy="true">Loading workspaces…</p>
      ) : list.length === 0 ? (
        <p class="empty">
          No workspaces yet.{" "}
          {editable ? "Create one, or start from an Open Exchange file." : "An owner or editor can create one."}
        </p>
      ) : (
        <ul class="workspace-list">
          {list.map((ws) => (
            <li key={ws.id} class={ws.id === profile?.active_workspace_id ? "workspace active" : "workspace"}>
              <div class="workspace-main">
                <a
                  href={`/workspaces/${encodeURIComponent(ws.id)}`}
                  onClick={(e) => {
                    e.preventDefault();
                    openWorkspace(ws.id);
                  }}
                >
                  {ws.name}
                </a>
                {ws.id === profile?.active_workspace_id ? <span class="role-badge">active</span> : null}
                {ws.description ? <p class="muted">{ws.description}</p> : null}
                {teams ? <p class="muted visibility">{visibleTo(ws, teams)}</p> : null}
              </div>
              {editable ? (
                <div class="row-actions">
                  {assignsTeams && teams ? (
                    <button type="button" onClick={() => setAssigning(ws)} aria-label={`Teams of ${ws.name}`}>
                      Teams
                    </button>
                  ) : null}
                  <button type="button" onClick={() => setRenaming(ws)} aria-label={`Rename ${ws.name}`}>
                    Rename
                  </button>
                  <button type="button" class="danger" onClick={() => setDeleting(ws)} aria-label={`Delete ${ws.name}`}>
                    Delete
                  </button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {creating ? (
        <CreateWorkspaceDialog
          onClose={() => setCreating(false)}
          onCreated={(ws) => {
            setCreating(false);
            openWorkspace(ws.id);
          }}
        />
      ) : null}
      {renaming ? (
        <RenameWorkspaceDialog
          ws={renaming}
          onClose={() => setRenaming(null)}
          onSaved={() => {
            setRenaming(null);
            load();
          }}
        />
      ) : null}
      {assigning && teams ? (
        <WorkspaceTeamsDialog
          ws={assigning}
          teams={teams}
          onClose={() => setAssigning(null)}
          onSaved={() => {
            setAssigning(null);
            load();
          }}
        />
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title="Delete workspace"
          danger
          confirmLabel="Delete workspace"
          message={
            <p>
              Delete <strong>{deleting.name}</strong> with all its elements, relationships and views? This cannot be
              undone. Export it first if you may need it again.
            </p>
          }
          onAnswer={(yes) => {
            const ws = deleting;
            setDeleting(null);
            if (yes) remove(ws);
          }}
        />
      ) : null}
    </main>
  );
}

export function HomePage() {
  const { profile } = useStore(session);
  return <Shell>{profile && profile.memberships.length === 0 ? <StarterHome /> : <WorkspacePicker />}</Shell>;
}
