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

/** A point of the diff as the diff-image route takes it: the version's id, else the (fixed) revision. */
const pointRef = (p: ModelDiff["from"]) => p.version?.id ?? String(p.revision);

/**
 * The view's changes as the server draws them (GET /api/views/:id/diff-image): the view at `to` with added objects
 * green, removed ones red and ghosted, changed and moved ones amber, and a legend.
 */
function ViewPicture(props: { viewId: string; name: string | null; diff: ModelDiff }) {
  const query = new URLSearchParams({ format: "svg", from: pointRef(props.diff.from), to: pointRef(props.diff.to) });
  return (
    <figure class="diff-picture">
      <img
        src={`/api/views/${encodeURIComponent(props.viewId)}/diff-image?${query}`}
        alt={`View “${props.name ?? "(no name)"}” with its changes marked: added green, removed red, changed or moved amber`}
        loading="lazy"
      />
    </figure>
  );
}

function ViewLayout(props: { view: ViewDiff; diff: ModelDiff }) {
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
      <ViewPicture viewId={props.view.view_id} name={props.view.name} diff={props.diff} />
    </section>
  );
}

/** Views added, removed or changed (renamed, ...) whose nodes and connections did not change: drawn all the same. */
function viewsWithoutLayoutChanges(d: ModelDiff) {
  const drawn = new Set(d.view_layouts.map((v) => v.view_id));
  return [...d.views.added, ...d.views.removed, ...d.views.changed].filter((v) => !drawn.has(v.id));
}

/** What differs between two points of history, per kind, and each changed view's layout changes with the server's picture of them. */
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
        <ViewLayout key={v.view_id} view={v} diff={d} />
      ))}
      {viewsWithoutLayoutChanges(d).map((v) => (
        <section class="diff-kind" key={v.id}>
          <h3>View “{v.name ?? "(no name)"}”</h3>
          <ViewPicture viewId={v.id} name={v.name} diff={d} />
        </section>
      ))}
    </div>
  );
}
