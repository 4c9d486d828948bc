import { useEffect, useState } from "preact/hooks";
import { api, describeError } from "../api/client.ts";
import type { Dashboard } from "../api/types.ts";
import { navigate, onLinkClick, queryParam } from "../app/router.ts";
import { canEdit, session } from "../app/session.ts";
import { Shell } from "../app/shell.tsx";
import { useStore } from "../app/store.ts";
import { ConfirmDialog } from "../ui/dialog.tsx";
import { notify, notifyError } from "../ui/notices.tsx";
import { DashboardEditor } from "./dashboard-editor.tsx";
import { definitionOf, type Parameter } from "./definition.ts";
import { PanelView } from "./panel-view.tsx";

function ParameterField(props: { p: Parameter; value: string; onChange: (v: string) => void }) {
  const { p } = props;
  const id = `param-${p.name}`;
  return (
    <div class="field">
      <label for={id}>
        {p.label}
        {p.required ? " (required)" : ""}
      </label>
      {p.type === "enum" ? (
        <select id={id} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
          {p.required ? null : <option value="">any</option>}
          {(p.options ?? []).map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      ) : p.type === "boolean" ? (
        <select id={id} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
          <option value="">default</option>
          <option value="true">yes</option>
          <option value="false">no</option>
        </select>
      ) : (
        <input
          id={id}
          type={p.type === "number" ? "number" : "text"}
          value={props.value}
          placeholder={p.type === "element" ? "element id" : undefined}
          onChange={(e) => props.onChange(e.currentTarget.value)}
        />
      )}
    </div>
  );
}

/**
 * One dashboard: its parameters, its panels on a 12-column grid, its revisions (an older one is shown as it was and
 * can be restored as the newest), editing as JSON and deletion for owners and editors.
 */
export function DashboardPage(props: { id: string }) {
  const { profile } = useStore(session);
  const [latest, setLatest] = useState<Dashboard | null>(null);
  const [shown, setShown] = useState<Dashboard | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [values, setValues] = useState<Record<string, string>>({});
  const [applied, setApplied] = useState<Record<string, string>>({});
  const path = `/api/dashboards/${encodeURIComponent(props.id)}`;
  const editable = canEdit(profile) && latest !== null && !latest.isProvisioned;

  const load = async (revision?: number) => {
    try {
      const last = await api.get<Dashboard>(path);
      setLatest(last);
      setShown(revision && revision !== last.revision ? await api.get<Dashboard>(path, { revision }) : last);
    } catch (err) {
      setError(describeError(err));
    }
  };
  useEffect(() => {
    const initial: Record<string, string> = {};
    for (const [k, v] of new URLSearchParams(window.location.search)) if (k !== "revision") initial[k] = v;
    setValues(initial);
    setApplied(initial);
    const r = Number(queryParam("revision"));
    load(Number.isInteger(r) && r > 0 ? r : undefined);
  }, [props.id]);

  const restore = async () => {
    if (!shown) return;
    try {
      const saved = await api.put<Dashboard>(path, definitionOf(shown));
      notify(`Revision ${shown.revision} restored as revision ${saved.revision}.`);
      setLatest(saved);
      setShown(saved);
    } catch (err) {
      notifyError(err);
    }
  };
  const remove = async () => {
    try {
      await api.del(path);
      notify(`Dashboard '${latest?.title}' deleted.`);
      navigate("/dashboards");
    } catch (err) {
      notifyError(err);
    }
  };

  if (error)
    return (
      <Shell>
        <main class="page narrow" id="main">
          <h1>This dashboard cannot be shown</h1>
          <p class="form-error" role="alert">
            {error}
          </p>
          <a href="/dashboards" onClick={onLinkClick}>
            All dashboards
          </a>
        </main>
      </Shell>
    );
  if (!latest || !shown)
    return (
      <Shell>
        <p class="loading" aria-busy="true">
          Loading the dashboard…
        </p>
      </Shell>
    );
  const old = shown.revision !== latest.revision;
  // A required parameter without a value: the panels would only be refused, so they wait for it.
  const missing = shown.parameters.filter((p) => p.required && p.default === undefined && !applied[p.name]);
  const rows = Math.max(1, ...shown.panels.map((p) => p.layout.y + p.layout.h));
  return (
    <Shell>
      <main class="page wide" id="main">
        <p>
          <a href="/dashboards" onClick={onLinkClick}>
            ← All dashboards
          </a>
        </p>
        <div class="page-head">
          <h1>
            {shown.title}
            {latest.isProvisioned ? <span class="role-badge">provisioned</span> : null}
          </h1>
          <div class="row-actions">
            <label for="revision" class="field-label">
              Revision
            </label>
            <select id="revision" value={String(shown.revision)} onChange={(e) => load(Number(e.currentTarget.value))}>
              {Array.from({ length: latest.latestRevision }, (_, i) => latest.latestRevision - i).map((r) => (
                <option key={r} value={String(r)}>
                  {r === latest.latestRevision ? `${r} (latest)` : String(r)}
                </option>
              ))}
            </select>
            {editable && !editing && !old ? (
              <>
                <button type="button" onClick={() => setEditing(true)}>
                  Edit
                </button>
                <button type="button" class="danger" onClick={() => setDeleting(true)}>
                  Delete
                </button>
              </>
            ) : null}
          </div>
        </div>
        {shown.description ? <p class="muted">{shown.description}</p> : null}
        {latest.isProvisioned ? (
          <p class="muted">This dashboard comes from a file on the server; change the file to change it.</p>
        ) : null}
        {old ? (
          <div class="outcome warn" role="status">
            You are looking at revision {shown.revision} of {latest.latestRevision}.{" "}
            {editable ? (
              <button type="button" class="primary" onClick={restore}>
                Restore this revision
              </button>
            ) : null}
          </div>
        ) : null}
        {editing ? (
          <DashboardEditor
            dashboardId={latest.dashboardId}
            initial={definitionOf(latest)}
            onCancel={() => setEditing(false)}
            onSaved={(d) => {
              notify(`Saved as revision ${d.revision}.`);
              setEditing(false);
              setLatest(d);
              setShown(d);
            }}
          />
        ) : null}
        {shown.parameters.length ? (
          <form
            class="inline-form"
            aria-label="Parameters"
            onSubmit={(e) => {
              e.preventDefault();
              const clean = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ""));
              setApplied(clean);
              const qs = new URLSearchParams(clean).toString();
              history.replaceState(null, "", `${window.location.pathname}${qs ? `?${qs}` : ""}`);
            }}
          >
            {shown.parameters.map((p) => (
              <ParameterField
                key={p.name}
                p={p}
                value={values[p.name] ?? (p.default !== undefined ? String(p.default) : "")}
                onChange={(v) => setValues({ ...values, [p.name]: v })}
              />
            ))}
            <button type="submit">Apply</button>
          </form>
        ) : null}
        {old ? (
          <ul class="muted">
            {shown.panels.map((p) => (
              <li key={p.panelInstanceId}>
                {p.title} ({p.visualization}): <code>{p.query}</code>
              </li>
            ))}
          </ul>
        ) : missing.length ? (
          <p class="outcome" role="status" data-missing>
            Give {missing.map((p) => p.label).join(" and ")} above and choose Apply: the panels run with it.
          </p>
        ) : (
          <div class="panel-grid" style={{ gridTemplateRows: `repeat(${rows}, minmax(110px, auto))` }}>
            {shown.panels.map((p) => (
              <PanelView
                key={`${shown.revision}-${p.panelInstanceId}`}
                dashboardId={shown.dashboardId}
                panel={p}
                values={applied}
              />
            ))}
          </div>
        )}
        {deleting ? (
          <ConfirmDialog
            title="Delete dashboard"
            danger
            confirmLabel="Delete"
            message={<p>Delete '{latest.title}'? It leaves the list; its revisions are kept.</p>}
            onAnswer={(yes) => {
              setDeleting(false);
              if (yes) remove();
            }}
          />
        ) : null}
      </main>
    </Shell>
  );
}
