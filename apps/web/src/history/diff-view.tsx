import type { KindDiff, ModelDiff, ViewDiff } from "../api/history.ts";
import { FieldChanges } from "./field-changes.tsx";

function KindSection(props: { title: string; diff: KindDiff }) {
  const { added, removed, changed } = props.diff;
  if (added.length + removed.length + changed.length === 0) return null;
  return (
    <section class="diff-kind">
      <h3>{props.title}</h3>
      <ul>
        {added.map((o) => (
          <li key={`a-${o.id}`} class="diff-added">
            Added <strong>{o.name ?? "(no name)"}</strong>
          </li>
        ))}
        {removed.map((o) => (
          <li key={`r-${o.id}`} class="diff-removed">
            Removed <strong>{o.name ?? "(no name)"}</strong>
          </li>
        ))}
        {changed.map((o) => (
          <li key={`c-${o.id}`}>
            Changed <strong>{o.name ?? "(no name)"}</strong>
            <FieldChanges fields={o.fields} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A view's layout changes drawn: where moved nodes were (dashed) and are (solid), with an arrow between. */
function LayoutPicture(props: { view: ViewDiff }) {
  const moved = props.view.nodes.moved;
  if (moved.length === 0) return null;
  const xs = moved.flatMap((m) => [m.before.x, m.after.x]);
  const ys = moved.flatMap((m) => [m.before.y, m.after.y]);
  const [x0, y0] = [Math.min(...xs) - 20, Math.min(...ys) - 20];
  const w = Math.max(...xs) - x0 + 160;
  const h = Math.max(...ys) - y0 + 80;
  return (
    <svg
      class="diff-picture"
      viewBox={`${x0} ${y0} ${w} ${h}`}
      role="img"
      aria-label={`Moved nodes of ${props.view.name}`}
    >
      {moved.map((m) => (
        <g key={m.id}>
          <rect x={m.before.x} y={m.before.y} width={120} height={50} class="before" />
          <rect x={m.after.x} y={m.after.y} width={120} height={50} class="after" />
          <line x1={m.before.x + 60} y1={m.before.y + 25} x2={m.after.x + 60} y2={m.after.y + 25} class="arrow" />
          <text x={m.after.x + 6} y={m.after.y + 30}>
            {m.label ?? ""}
          </text>
        </g>
      ))}
    </svg>
  );
}

function ViewLayout(props: { view: ViewDiff }) {
  const { nodes, connections } = props.view;
  const lines: string[] = [
    ...nodes.added.map((n) => `Node ${n.label ?? ""} added`),
    ...nodes.removed.map((n) => `Node ${n.label ?? ""} removed`),
    ...nodes.moved.map(
      (n) => `Node ${n.label ?? ""} moved (${n.before.x}, ${n.before.y}) → (${n.after.x}, ${n.after.y})`,
    ),
    ...nodes.resized.map(
      (n) => `Node ${n.label ?? ""} resized ${n.before.w}×${n.before.h} → ${n.after.w}×${n.after.h}`,
    ),
    ...nodes.changed.map((n) => `Node ${n.label ?? ""} changed`),
    ...connections.added.map((c) => `Connection ${c.label ?? ""} added`),
    ...connections.removed.map((c) => `Connection ${c.label ?? ""} removed`),
    ...connections.changed.map((c) => `Connection ${c.label ?? ""} changed`),
  ];
  return (
    <section class="diff-kind">
      <h3>View “{props.view.name ?? "(no name)"}”</h3>
      <ul>
        {lines.map((l) => (
          <li key={l}>{l}</li>
        ))}
      </ul>
      <LayoutPicture view={props.view} />
    </section>
  );
}

/** What differs between two points of history, per kind, and each view's layout changes with a picture. */
export function DiffView(props: { diff: ModelDiff }) {
  const d = props.diff;
  const empty =
    d.model.length === 0 &&
    d.view_layouts.length === 0 &&
    [d.elements, d.relationships, d.views, d.property_definitions, d.folders].every(
      (k) => k.added.length + k.removed.length + k.changed.length === 0,
    );
  if (empty) return <p class="muted">No differences.</p>;
  return (
    <div class="diff">
      {d.model.length ? (
        <section class="diff-kind">
          <h3>Model</h3>
          <FieldChanges fields={d.model} />
        </section>
      ) : null}
      <KindSection title="Elements" diff={d.elements} />
      <KindSection title="Relationships" diff={d.relationships} />
      <KindSection title="Views" diff={d.views} />
      <KindSection title="Property definitions" diff={d.property_definitions} />
      <KindSection title="Folders" diff={d.folders} />
      {d.view_layouts.map((v) => (
        <ViewLayout key={v.view_id} view={v} />
      ))}
    </div>
  );
}
