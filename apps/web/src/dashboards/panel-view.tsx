import { useEffect, useState } from "preact/hooks";
import { api, describeError } from "../api/client.ts";
import type { PanelAnswer, QueryResult } from "../api/types.ts";
import { behindText, isBuilding, queuedGraphQuery } from "../graph/graph-queue.ts";
import { QueryResults } from "../graph/results.tsx";
import type { Panel } from "./definition.ts";

/** How often a panel whose graph is behind the model runs again, and for how many times at most. */
const CATCH_UP_MS = 1000;
const CATCH_UP_TRIES = 30;

/**
 * One panel on the 12-column grid: its query run with the dashboard's parameter values, drawn as asked. The panels
 * of a page share the browser's graph query queue (graph-queue.ts): a panel waits its turn showing "Loading…", a
 * graph being built shows how far it is, and a graph behind the model says so and runs the panel again.
 */
export function PanelView(props: { dashboardId: string; panel: Panel; values: Record<string, string> }) {
  const { panel } = props;
  const [result, setResult] = useState<QueryResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [waiting, setWaiting] = useState<string | null>(null);
  const query = JSON.stringify(props.values);
  useEffect(() => {
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setResult(null);
    setError(null);
    setWaiting(null);
    const path = `/api/dashboards/${encodeURIComponent(props.dashboardId)}/panels/${encodeURIComponent(panel.panelInstanceId)}`;
    const run = (tries: number) =>
      queuedGraphQuery(() => api.get<PanelAnswer>(path, props.values), {
        alive: () => alive,
        onWait: (err) => {
          if (alive) setWaiting(isBuilding(err) ? `${err.message}…` : null);
        },
      })
        .then((answer) => {
          if (!alive) return;
          setWaiting(null);
          setResult(answer.result);
          if ((answer.result.graph?.behind ?? 0) > 0 && tries < CATCH_UP_TRIES)
            timer = setTimeout(() => run(tries + 1), CATCH_UP_MS);
        })
        .catch((err) => {
          if (alive) setError(describeError(err));
        });
    run(0);
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [props.dashboardId, panel.panelInstanceId, query]);
  const behind = behindText(result?.graph);
  const { x, y, w, h } = panel.layout;
  return (
    <section
      class="panel"
      aria-label={panel.title}
      data-panel={panel.panelInstanceId}
      style={{ gridColumn: `${x + 1} / span ${w}`, gridRow: `${y + 1} / span ${h}` }}
    >
      <h3>{panel.title}</h3>
      {panel.description ? <p class="muted small">{panel.description}</p> : null}
      {error ? (
        <p class="form-error" role="alert">
          {error}
        </p>
      ) : !result ? (
        <p aria-busy="true" class="muted" role="status">
          {waiting ?? "Loading…"}
        </p>
      ) : null}
      {behind ? (
        <p class="muted small" role="status" data-behind>
          {behind}
        </p>
      ) : null}
      {error || !result ? null : panel.visualization === "core/metric" ? (
        <p class="metric" data-metric>
          {String(result.rows[0]?.[0] ?? "–")}
          <span class="muted small">{result.columns[0] ?? ""}</span>
        </p>
      ) : (
        <QueryResults result={result} initial={panel.visualization === "core/graph" ? "graph" : "table"} />
      )}
    </section>
  );
}
