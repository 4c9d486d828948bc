import { useState } from "preact/hooks";
import { api, describeError } from "../api/client.ts";
import type { Team, Workspace, WorkspaceTeams } from "../api/types.ts";
import { Dialog } from "../ui/dialog.tsx";
import { DialogActions, FormError } from "../ui/form.tsx";
import { notify } from "../ui/notices.tsx";

/** Who sees a workspace, in words: its teams, or the whole organization when it has none. */
export function visibleTo(ws: Workspace, teams: Team[]): string {
  const names = teams.filter((t) => t.workspace_ids.includes(ws.id)).map((t) => t.name);
  if (names.length === 0) return "Visible to everyone";
  return `Visible to ${names.length === 1 ? "team" : "teams"} ${names.join(", ")} (and owners and admins)`;
}

/** Chooses the teams that may see a workspace (session profile; owners and admins). None: the whole organization. */
export function WorkspaceTeamsDialog(props: {
  ws: Workspace;
  teams: Team[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const [chosen, setChosen] = useState<string[]>(
    props.teams.filter((t) => t.workspace_ids.includes(props.ws.id)).map((t) => t.id),
  );
  const [error, setError] = useState<string | null>(null);
  const toggle = (id: string, on: boolean) => setChosen((c) => (on ? [...c, id] : c.filter((x) => x !== id)));
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      const saved = await api.put<WorkspaceTeams>(`/api/workspaces/${encodeURIComponent(props.ws.id)}/teams`, {
        team_ids: chosen,
      });
      notify(
        saved.team_ids.length
          ? `${props.ws.name} is now visible only to its teams, owners and admins.`
          : `${props.ws.name} is now visible to the whole organization.`,
      );
      props.onSaved();
    } catch (err) {
      setError(describeError(err));
    }
  };
  return (
    <Dialog title={`Teams of ${props.ws.name}`} onClose={props.onClose}>
      <form class="dialog-body" onSubmit={submit}>
        {props.teams.length === 0 ? (
          <p>
            This organization has no teams yet. Create them under Organization, Teams; until then everyone in the
            organization sees every workspace.
          </p>
        ) : (
          <fieldset class="checks">
            <legend>Teams that may see this workspace</legend>
            {props.teams.map((t) => (
              <label key={t.id} class="check">
                <input
                  type="checkbox"
                  checked={chosen.includes(t.id)}
                  onChange={(e) => toggle(t.id, e.currentTarget.checked)}
                />
                {t.name}
              </label>
            ))}
          </fieldset>
        )}
        <p class="muted">
          With no team chosen, everyone in the organization sees it. Owners and admins always see every workspace.
        </p>
        <FormError error={error} />
        <DialogActions onCancel={props.onClose} submit="Save" disabled={props.teams.length === 0} />
      </form>
    </Dialog>
  );
}
