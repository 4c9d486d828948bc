import { useEffect, useState } from "preact/hooks";
import { api, describeError } from "../api/client.ts";
import { editor, setSelected } from "../canvas/editor-store.ts";
import { model, openView, select } from "./model-store.ts";

/** One issue as POST /api/workspaces/:id/validate answers it. */
export type Issue = {
  rule: string;
  rule_id: string | null;
  severity: "error" | "warning" | "info";
  object: { kind: string; id: string; view_id: string | null };
  name: string;
  message: string;
  fix_hint: string;
};
export type Validation = {
  issues: Issue[];
  counts: { error: number; warning: number; info: number; total: number };
  truncated: boolean;
};

/** Runs the workspace's validation (built-in and organization rules). */
export function runValidation(workspaceId: string): Promise<Validation> {
  return api.post<Validation>(`/api/workspaces/${encodeURIComponent(workspaceId)}/validate`, { limit: 2000 });
}

/** Once the view is open in the editor, its nodes showing the element are selected there. */
function selectOnView(viewId: string, elementId: string) {
  const opened = () => {
    const view = editor.get().view;
    return view && view.id === viewId ? view : null;
  };
  const apply = (view: NonNullable<ReturnType<typeof opened>>) =>
    setSelected([...view.nodes.values()].filter((n) => n.element_id === elementId).map((n) => n.id));
  const now = opened();
  if (now) return apply(now);
  const stop = editor.subscribe(() => {
    const view = opened();
    if (!view) return;
    // Unsubscribed before selecting: the selection is itself a change of the editor, which would call this again.
    stop();
    apply(view);
  });
  setTimeout(stop, 10_000);
}

/** Selects the issue's object in the model tree, and on its view (opened first) when it shows on one. */
export function showIssue(issue: Issue) {
  const { kind, id, view_id } = issue.object;
  const state = model.get();
  const viewId = view_id ?? (kind === "view" ? id : null);
  if (viewId && state.views.some((v) => v.id === viewId) && state.openViewId !== viewId) openView(viewId);
  if (kind === "element" && state.elements.has(id)) {
    select({ kind: "element", id });
    if (viewId) selectOnView(viewId, id);
  } else if (kind === "relationship" && state.relationships.has(id)) select({ kind: "relationship", id });
  else if (kind === "view") select({ kind: "view", id });
}

const ICON = { error: "✖", warning: "▲", info: "ℹ" } as const;

/** The Problems tab: the validation's issues, errors first; a click selects the object on the tree and the view. */
export function ProblemsPanel(props: {
  workspaceId: string;
  result: Validation | null;
  error: string | null;
  onRun: () => void;
  running: boolean;
}) {
  const { result } = props;
  const [filter, setFilter] = useState<"all" | Issue["severity"]>("all");
  const [chosen, setChosen] = useState<number | null>(null);
  useEffect(() => setChosen(null), [result]);
  const shown = result ? result.issues.filter((i) => filter === "all" || i.severity === filter) : [];
  return (
    <div class="problems">
      <div class="problems-bar">
        <button type="button" onClick={props.onRun} disabled={props.running}>
          {props.running ? "Checking…" : "Check again"}
        </button>
        <label>
          Show{" "}
          <select value={filter} onChange={(e) => setFilter(e.currentTarget.value as typeof filter)}>
            <option value="all">All</option>
            <option value="error">Errors</option>
            <option value="warning">Warnings</option>
            <option value="info">Information</option>
          </select>
        </label>
      </div>
      {props.error ? (
        <p class="form-error" role="alert">
          {props.error}
        </p>
      ) : null}
      {result ? (
        <p class="problems-counts" aria-live="polite">
          {result.counts.error} errors, {result.counts.warning} warnings, {result.counts.info} information
          {result.truncated ? ` (first ${result.issues.length} listed)` : ""}
        </p>
      ) : (
        <p class="loading" aria-busy="true">
          Checking the model…
        </p>
      )}
      {result && result.counts.total === 0 ? <p>No problems found.</p> : null}
      <ul class="problems-list" aria-label="Problems">
        {shown.map((issue, k) => (
          <li key={`${issue.rule}-${issue.object.kind}-${issue.object.id}-${k}`}>
            <button
              type="button"
              class={`problem ${issue.severity}${chosen === k ? " chosen" : ""}`}
              aria-pressed={chosen === k}
              title={`Fix: ${issue.fix_hint}`}
              onClick={() => {
                setChosen(k);
                showIssue(issue);
              }}
            >
              <span class="problem-icon" aria-hidden="true">
                {ICON[issue.severity]}
              </span>
              <span class="visually-hidden">{issue.severity}: </span>
              <span class="problem-text">
                {issue.message}
                <span class="problem-rule">
                  {issue.rule} · fix: {issue.fix_hint}
                </span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The validation of the open workspace, run when asked (the Problems tab opens it, "Check again" repeats it). */
export function useValidation(workspaceId: string, ready: boolean) {
  const [result, setResult] = useState<Validation | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const run = () => {
    setRunning(true);
    setError(null);
    runValidation(workspaceId)
      .then(setResult)
      .catch((err) => setError(describeError(err)))
      .finally(() => setRunning(false));
  };
  useEffect(() => {
    if (ready) run();
  }, [ready, workspaceId]);
  return { result, error, running, run };
}
