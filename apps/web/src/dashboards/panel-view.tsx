import { useEffect, useState } from "preact/hooks";
import { api, describeError } from "../api/client.ts";
import type { PanelAnswer, QueryResult } from "../api/types.ts";
import { QueryResults } from "../graph/results.tsx";
import type { Panel } from "./definition.ts";

/** One panel on the 12-column grid: its query run with the dashboard's parameter values, drawn as asked. */
export function PanelView(props: { dashboardId: string; panel: Panel; values: Record<string, string> }) {
  const { panel } = props;
  const [result, setResult] = useState<QueryResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const query = JSON.stringify(props.values);
  useEffect(() => {
    setResult(null);
    setError(null);
    api
      .get<PanelAnswer>(
        `/api/dashboards/${encodeURIComponent(props.dashboardId)}/panels/${encodeURIComponent(panel.panelInstanceId)}`,
        props.values,
      )
      .then((answer) => setResult(answer.result))
      .catch((err) => setError(describeError(err)));
  }, [props.dashboardId, panel.panelInstanceId, query]);
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
        <p aria-busy="true" class="muted">
          Loading…
        </p>
      ) : panel.visualization === "core/metric" ? (
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
