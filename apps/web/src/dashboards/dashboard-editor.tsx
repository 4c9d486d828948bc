import { useState } from "preact/hooks";
import { ApiError, api, describeError } from "../api/client.ts";
import type { Dashboard } from "../api/types.ts";
import type { Definition } from "./definition.ts";

/**
 * The definition as JSON, checked as you type (syntax here; the published schema's rules — unique panel ids, known
 * bindings, typed defaults, read-only queries, grid fit — by the server on save, each error with its path).
 */
export function DashboardEditor(props: {
  dashboardId?: string;
  initial: Definition;
  onSaved: (d: Dashboard) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState(() => JSON.stringify(props.initial, null, 2));
  const [errors, setErrors] = useState<string[]>([]);
  let syntax: string | null = null;
  try {
    JSON.parse(text);
  } catch (err) {
    syntax = err instanceof Error ? err.message : String(err);
  }
  const save = async () => {
    if (syntax) return;
    setErrors([]);
    try {
      const body = JSON.parse(text);
      const saved = props.dashboardId
        ? await api.put<Dashboard>(`/api/dashboards/${encodeURIComponent(props.dashboardId)}`, body)
        : await api.post<Dashboard>("/api/dashboards", body);
      props.onSaved(saved);
    } catch (err) {
      if (err instanceof ApiError && err.errors.length)
        setErrors(err.errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)));
      else setErrors([describeError(err)]);
    }
  };
  return (
    <section class="card" aria-labelledby="dashboard-editor-title">
      <h2 id="dashboard-editor-title">{props.dashboardId ? "Edit the dashboard" : "New dashboard"}</h2>
      <div class="field">
        <label for="dashboard-json">Dashboard definition (JSON)</label>
        <textarea
          id="dashboard-json"
          class="mono json-editor"
          spellcheck={false}
          rows={24}
          value={text}
          aria-invalid={syntax !== null}
          aria-describedby="dashboard-json-help"
          onInput={(e) => setText(e.currentTarget.value)}
        />
        <p id="dashboard-json-help" class="hint">
          title, description, parameters (name, label, type, default, required, options) and panels (panelInstanceId,
          title, visualization core/graph, core/table or core/metric, a read-only Cypher query, layout x, y, w, h on a
          12-column grid). The full schema: <a href="/api/dashboards/schema">GET /api/dashboards/schema</a>.
        </p>
      </div>
      {syntax ? (
        <p class="form-error" role="alert">
          Not valid JSON: {syntax}
        </p>
      ) : null}
      {errors.length ? (
        <div class="form-error" role="alert">
          <p>The dashboard was not saved:</p>
          <ul>
            {errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <div class="row-actions">
        <button type="button" class="primary" disabled={syntax !== null} onClick={save}>
          {props.dashboardId ? "Save as a new revision" : "Create dashboard"}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}
