import { useEffect, useState } from "preact/hooks";
import { api } from "../api/client.ts";
import type { DashboardAdminSummary } from "../api/types.ts";
import { navigate, onLinkClick } from "../app/router.ts";
import { activeMembership, canEdit, session } from "../app/session.ts";
import { Shell } from "../app/shell.tsx";
import { useStore } from "../app/store.ts";
import { formatDate } from "../ui/copy.tsx";
import { notify, notifyError } from "../ui/notices.tsx";
import { DashboardEditor } from "./dashboard-editor.tsx";
import { TEMPLATE } from "./definition.ts";

/** The organization's dashboards and the provisioned ones; owners and editors also see the deleted ones. */
export function DashboardsPage() {
  const { profile } = useStore(session);
  const editor = canEdit(profile);
  const [list, setList] = useState<DashboardAdminSummary[] | null>(null);
  const [creating, setCreating] = useState(false);
  const load = () =>
    api
      .get<DashboardAdminSummary[]>(editor ? "/api/dashboards/admin" : "/api/dashboards")
      .then(setList)
      .catch((err) => {
        setList([]);
        notifyError(err);
      });
  const restore = async (d: DashboardAdminSummary) => {
    try {
      await api.post(`/api/dashboards/${encodeURIComponent(d.dashboardId)}/restore`);
      notify(`Dashboard '${d.title}' restored.`);
      load();
    } catch (err) {
      notifyError(err);
    }
  };
  useEffect(() => {
    if (profile?.active_workspace_id) load();
  }, [profile?.active_organization_id, profile?.active_workspace_id]);

  if (!activeMembership(profile) || !profile?.active_workspace_id)
    return (
      <Shell>
        <main class="page narrow" id="main">
          <h1>Dashboards</h1>
          <p>
            Open a workspace first (
            <a href="/" onClick={onLinkClick}>
              choose one
            </a>
            ): dashboards show its graph.
          </p>
        </main>
      </Shell>
    );
  return (
    <Shell>
      <main class="page" id="main">
        <div class="page-head">
          <h1>Dashboards</h1>
          {editor && !creating ? (
            <button type="button" class="primary" onClick={() => setCreating(true)}>
              New dashboard
            </button>
          ) : null}
        </div>
        {creating ? (
          <DashboardEditor
            initial={TEMPLATE}
            onCancel={() => setCreating(false)}
            onSaved={(d) => navigate(`/dashboards/${encodeURIComponent(d.dashboardId)}`)}
          />
        ) : null}
        {list === null ? (
          <p aria-busy="true">Loading dashboards…</p>
        ) : list.length === 0 ? (
          <p class="empty">No dashboards yet.</p>
        ) : (
          <table class="table data-table" aria-label="Dashboards">
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Panels</th>
                <th scope="col">Revision</th>
                <th scope="col">Updated</th>
                <th scope="col">Kind</th>
              </tr>
            </thead>
            <tbody>
              {list.map((d) => (
                <tr key={d.dashboardId} data-dashboard={d.title}>
                  <td>
                    {d.deleted ? (
                      <span>{d.title}</span>
                    ) : (
                      <a href={`/dashboards/${encodeURIComponent(d.dashboardId)}`} onClick={onLinkClick}>
                        {d.title}
                      </a>
                    )}
                    {d.description ? <div class="muted small">{d.description}</div> : null}
                  </td>
                  <td>{d.panels.length}</td>
                  <td>{d.latestRevision}</td>
                  <td>{formatDate(d.updated_at)}</td>
                  <td>
                    {d.isProvisioned ? <span class="role-badge">provisioned</span> : null}
                    {d.deleted ? (
                      <>
                        <span class="status-off">deleted {formatDate(d.deleted_at)}</span>{" "}
                        <button type="button" onClick={() => restore(d)} aria-label={`Restore ${d.title}`}>
                          Restore
                        </button>
                      </>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </main>
    </Shell>
  );
}
