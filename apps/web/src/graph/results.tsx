import { useState } from "preact/hooks";
import type { QueryResult } from "../api/types.ts";
import { onLinkClick } from "../app/router.ts";
import { session } from "../app/session.ts";
import { useStore } from "../app/store.ts";
import { GraphPicture, nodeCaption, type PictureNode } from "./graph-picture.tsx";

function cell(v: unknown, result: QueryResult): string {
  if (v === null || v === undefined) return "";
  if (typeof v !== "object") return String(v);
  const o = v as Record<string, unknown>;
  if (typeof o.id === "string" && Array.isArray(o.labels)) return `(${nodeCaption(o as unknown as PictureNode)})`;
  if (typeof o.id === "string" && typeof o.type === "string" && "start" in o) return `[:${o.type}]`;
  if (Array.isArray(o.nodes) && Array.isArray(o.relationships)) return `path of ${o.nodes.length} nodes`;
  void result;
  return JSON.stringify(v);
}

function Inspector(props: { node: PictureNode; onClose: () => void }) {
  const { profile } = useStore(session);
  const elementId = typeof props.node.properties.id === "string" ? props.node.properties.id : null;
  const ws = profile?.active_workspace_id;
  const isElement = props.node.labels.includes("Element");
  const isView = props.node.labels.includes("View");
  const href =
    ws && elementId
      ? `/workspaces/${encodeURIComponent(ws)}?${isView ? "view" : "element"}=${encodeURIComponent(elementId)}`
      : null;
  return (
    <aside class="inspector" aria-label="Selected node">
      <div class="page-head">
        <h3>{nodeCaption(props.node)}</h3>
        <button type="button" class="icon-button" aria-label="Close the node's details" onClick={props.onClose}>
          ×
        </button>
      </div>
      <p class="muted">{props.node.labels.join(", ")}</p>
      <dl class="facts">
        {Object.entries(props.node.properties).map(([k, v]) => (
          <>
            <dt key={`k-${k}`}>{k}</dt>
            <dd key={`v-${k}`}>{typeof v === "object" ? JSON.stringify(v) : String(v)}</dd>
          </>
        ))}
      </dl>
      {href && (isElement || isView) ? (
        <a class="button" href={href} onClick={onLinkClick}>
          Open in modeler
        </a>
      ) : null}
    </aside>
  );
}

/** A query's answer as a table and, when it holds nodes, as a picture; `truncated` said in words. */
export function QueryResults(props: { result: QueryResult; initial?: "graph" | "table" }) {
  const { result } = props;
  const hasGraph = result.nodes.length > 0;
  const [tab, setTab] = useState<"graph" | "table">(props.initial ?? (hasGraph ? "graph" : "table"));
  const [selected, setSelected] = useState<string | null>(null);
  const node = result.nodes.find((n) => n.id === selected);
  const shown = hasGraph ? tab : "table";
  return (
    <div class="results">
      <p class="muted" role="status">
        {result.rows.length} row{result.rows.length === 1 ? "" : "s"}
        {hasGraph ? `, ${result.nodes.length} nodes, ${result.relationships.length} relationships` : ""}
        {result.truncated ? `. Only the first ${result.rowCap} rows are shown: narrow the query or add a LIMIT.` : ""}
      </p>
      {hasGraph ? (
        <div class="tabs" role="tablist" aria-label="Result as">
          <button type="button" role="tab" aria-selected={shown === "graph"} onClick={() => setTab("graph")}>
            Graph
          </button>
          <button type="button" role="tab" aria-selected={shown === "table"} onClick={() => setTab("table")}>
            Table
          </button>
        </div>
      ) : null}
      {shown === "graph" ? (
        <div class="graph-with-inspector">
          <GraphPicture
            nodes={result.nodes}
            relationships={result.relationships}
            selected={selected}
            onSelect={setSelected}
          />
          {node ? <Inspector node={node} onClose={() => setSelected(null)} /> : null}
        </div>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling table takes keyboard focus to scroll (axe)
        <div class="table-scroll" tabIndex={0}>
          <table class="table data-table" aria-label="Result rows">
            <thead>
              <tr>
                {result.columns.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {result.rows.slice(0, 1000).map((row, i) => (
                <tr key={i}>
                  {row.map((v, j) => (
                    <td key={j}>{cell(v, result)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
