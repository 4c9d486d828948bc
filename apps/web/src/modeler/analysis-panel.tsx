import { useEffect, useRef, useState } from "preact/hooks";
import { api, describeError } from "../api/client.ts";
import type { DerivedResult, Element, GapResult, ImpactResult, Relationship, ViewSummary } from "../api/types.ts";
import { useStore } from "../app/store.ts";
import { editor } from "../canvas/editor-store.ts";
import { words } from "../ui/form.tsx";
import { notify, notifyError } from "../ui/notices.tsx";
import { type AnalysisKind, analysisRequest } from "./element-menu.tsx";
import { model, openView, putRelationship, reloadViews, select } from "./model-store.ts";

type Direction = "dependents" | "dependencies" | "both";
const DIRECTIONS: Record<Direction, string> = {
  dependents: "What depends on it",
  dependencies: "What it depends on",
  both: "Both",
};

const q = (id: string) => encodeURIComponent(id);

/**
 * Opens a section when the element's context menu asked for one of `kinds` (then the request is used up), and
 * moves focus to the section's heading once it is drawn.
 */
function useAnalysisRequest(elementId: string, kinds: AnalysisKind[], open: (kind: AnalysisKind) => void) {
  const request = useStore(analysisRequest);
  const heading = useRef<HTMLHeadingElement>(null);
  const [focusAt, setFocusAt] = useState(0);
  useEffect(() => {
    if (!request || request.elementId !== elementId || !kinds.includes(request.kind)) return;
    analysisRequest.set(null);
    open(request.kind);
    setFocusAt(request.nonce);
  }, [request?.nonce, elementId]);
  useEffect(() => {
    if (!focusAt || !heading.current) return;
    heading.current.scrollIntoView({ block: "nearest" });
    heading.current.focus();
  }, [focusAt, heading.current]);
  return heading;
}

function ElementLink(props: { id: string; name: string }) {
  return (
    <button type="button" class="link-button" onClick={() => select({ kind: "element", id: props.id })}>
      {props.name || "(unnamed)"}
    </button>
  );
}

/**
 * "What depends on this?": impact analysis of the selected element (GET /api/elements/:id/impact), the affected
 * elements by layer with the relationship types along each one's shortest path; they can be highlighted on the open
 * view or shown on a new view laid out by layer.
 */
function ImpactAnalysis(props: { element: Element; editable: boolean }) {
  const [open, setOpen] = useState(false);
  const [direction, setDirection] = useState<Direction>("dependents");
  const [depth, setDepth] = useState(3);
  const [result, setResult] = useState<ImpactResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const view = useStore(editor, (s) => s.view);
  const heading = useAnalysisRequest(props.element.id, ["dependents", "dependencies"], (kind) => {
    setDirection(kind as Direction);
    setOpen(true);
  });
  useEffect(() => {
    if (!open) return;
    let live = true;
    setError(null);
    api
      .get<ImpactResult>(`/api/elements/${q(props.element.id)}/impact?direction=${direction}&depth=${depth}`)
      .then((r) => live && setResult(r))
      .catch((err) => live && setError(describeError(err)));
    return () => {
      live = false;
    };
  }, [open, direction, depth, props.element.id]);

  const ids = result ? result.layers.flatMap((l) => l.elements.map((e) => e.id)) : [];
  const title = `${DIRECTIONS[direction]}: ${props.element.name || "(unnamed)"}`;
  const onView = view ? ids.filter((id) => [...view.nodes.values()].some((n) => n.element_id === id)).length : 0;
  const highlight = () => {
    editor.set((s) => ({ ...s, highlight: { elementIds: new Set([props.element.id, ...ids]), title } }));
    notify(`${onView} of ${ids.length} affected elements are on this view; they are outlined, the rest is dimmed.`);
  };
  const createView = async () => {
    setBusy(true);
    try {
      const name = `Impact of ${props.element.name || words(props.element.type)}`;
      // One change: the view with its elements and their relationships, laid out by layer.
      const created = await api.post<ViewSummary>("/api/views", {
        name,
        documentation: `${DIRECTIONS[direction]}, up to ${depth} relationships away (impact analysis).`,
        element_ids: [props.element.id, ...ids].slice(0, 500),
      });
      await reloadViews();
      openView(created.id);
      notify(`Created the view '${name}' with ${ids.length + 1} elements laid out by layer.`);
    } catch (err) {
      notifyError(new Error(describeError(err)));
    } finally {
      setBusy(false);
    }
  };

  if (!open)
    return (
      <button type="button" onClick={() => setOpen(true)}>
        What depends on this?
      </button>
    );
  return (
    <section class="analysis-impact" aria-labelledby="impact-title">
      <h4 id="impact-title" ref={heading} tabindex={-1}>
        Impact analysis
      </h4>
      <div class="analysis-controls">
        <div class="field">
          <label for="impact-direction">Direction</label>
          <select
            id="impact-direction"
            value={direction}
            onChange={(e) => setDirection(e.currentTarget.value as Direction)}
          >
            {Object.entries(DIRECTIONS).map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="impact-depth">Depth</label>
          <select id="impact-depth" value={depth} onChange={(e) => setDepth(Number(e.currentTarget.value))}>
            {[1, 2, 3, 4, 5, 6].map((d) => (
              <option key={d} value={d}>
                {d} {d === 1 ? "relationship" : "relationships"}
              </option>
            ))}
          </select>
        </div>
      </div>
      {error ? (
        <p class="form-error" role="alert">
          {error}
        </p>
      ) : !result ? (
        <p class="loading" aria-busy="true">
          Analysing…
        </p>
      ) : (
        <>
          <p aria-live="polite">
            {result.count === 0
              ? "Nothing found within this depth."
              : `${result.count} affected ${result.count === 1 ? "element" : "elements"}${result.truncated ? " (the first 5,000)" : ""}.`}
          </p>
          <div class="panel-actions">
            {view && result.count ? (
              <button type="button" onClick={highlight}>
                Highlight on view
              </button>
            ) : null}
            {props.editable && result.count ? (
              <button type="button" disabled={busy} onClick={createView}>
                Create view
              </button>
            ) : null}
          </div>
          <ul class="ref-list impact-list" aria-label="Affected elements">
            {result.layers.map((layer) => (
              <li key={layer.layer} class="analysis-layer">
                <h5>
                  {layer.layer} ({layer.elements.length})
                </h5>
                <ul class="ref-list">
                  {layer.elements.map((e) => (
                    <li key={e.id} data-impact-element={e.name}>
                      <ElementLink id={e.id} name={e.name} /> <span class="muted small">{words(e.type)}</span>
                      <span class="analysis-path">via {e.path_types.map(words).join(" → ")}</span>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/**
 * The relationships ArchiMate derives from the element (GET /api/elements/:id/derived-relationships), marked
 * "derived", each with its chain; one can be added to the model explicitly (they are never stored otherwise).
 */
function DerivedRelationships(props: { element: Element; editable: boolean }) {
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState<DerivedResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const elements = useStore(model, (s) => s.elements);
  const heading = useAnalysisRequest(props.element.id, ["derived"], () => setOpen(true));
  const load = () =>
    api
      .get<DerivedResult>(`/api/elements/${q(props.element.id)}/derived-relationships`)
      .then(setResult)
      .catch((err) => setError(describeError(err)));
  useEffect(() => {
    if (open) void load();
  }, [open, props.element.id]);
  const add = async (type: string, source: string, target: string) => {
    try {
      const rel = await api.post<Relationship>("/api/relationships", { type, source, target });
      putRelationship(rel);
      notify(`Added the ${words(type)} relationship to the model.`);
      await load();
    } catch (err) {
      notifyError(new Error(describeError(err)));
    }
  };
  if (!open)
    return (
      <button type="button" onClick={() => setOpen(true)}>
        Derived relationships
      </button>
    );
  return (
    <section aria-labelledby="derived-title">
      <h4 id="derived-title" ref={heading} tabindex={-1}>
        Derived relationships
      </h4>
      {error ? (
        <p class="form-error" role="alert">
          {error}
        </p>
      ) : !result ? (
        <p class="loading" aria-busy="true">
          Deriving…
        </p>
      ) : result.count === 0 ? (
        <p class="muted small">Nothing derives from this element's relationships.</p>
      ) : (
        <ul class="ref-list" aria-label="Derived relationships">
          {result.relationships.map((r) => (
            <li
              key={`${r.type}-${r.direction}-${r.other.id}`}
              data-derived={`${r.type} ${r.direction === "incoming" ? "from" : "to"} ${r.other.name}`}
            >
              <span class="badge-derived">derived</span> {words(r.type)} {r.direction === "incoming" ? "from" : "to"}{" "}
              <ElementLink id={r.other.id} name={r.other.name} />{" "}
              <span class="muted small">
                ({r.certainty === "certain" ? "certain" : "potential"}, {r.rules.join(", ")})
              </span>
              <span class="analysis-path">
                from{" "}
                {r.chain
                  .map(
                    (s) =>
                      `${elements.get(s.source)?.name ?? s.source} ${words(s.type)} ${elements.get(s.target)?.name ?? s.target}`,
                  )
                  .join(", then ")}
              </span>
              {r.in_model ? (
                <span class="muted small">Already in the model.</span>
              ) : props.editable ? (
                <button type="button" class="link-button" onClick={() => add(r.type, r.source, r.target.id)}>
                  Add to model
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Plateau comparison: this plateau against another (GET /api/analysis/gap), the elements added, removed and kept,
 * the Gap elements between them, and the difference drawn (GET /api/analysis/gap/image).
 */
export function PlateauComparison(props: { element: Element }) {
  const elements = useStore(model, (s) => s.elements);
  const plateaus = [...elements.values()]
    .filter((e) => e.type === "Plateau" && e.id !== props.element.id)
    .sort((a, b) => a.name.localeCompare(b.name));
  const [other, setOther] = useState("");
  const [later, setLater] = useState(true);
  const [result, setResult] = useState<GapResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const from = later ? props.element.id : other;
  const to = later ? other : props.element.id;
  useEffect(() => {
    setResult(null);
    setError(null);
    if (!other) return;
    api
      .get<GapResult>(`/api/analysis/gap?from=${q(from)}&to=${q(to)}`)
      .then(setResult)
      .catch((err) => setError(describeError(err)));
  }, [from, to, other]);
  if (plateaus.length === 0) return null;
  const list = (title: string, items: { id: string; name: string; type: string }[]) => (
    <>
      <h5>
        {title} ({items.length})
      </h5>
      <ul class="ref-list" aria-label={title}>
        {items.map((e) => (
          <li key={e.id}>
            <ElementLink id={e.id} name={e.name} /> <span class="muted small">{words(e.type)}</span>
          </li>
        ))}
      </ul>
    </>
  );
  return (
    <section aria-labelledby="gap-title">
      <h4 id="gap-title">Compare plateaus</h4>
      <div class="analysis-controls">
        <div class="field">
          <label for="gap-other">Compare with</label>
          <select id="gap-other" value={other} onChange={(e) => setOther(e.currentTarget.value)}>
            <option value="">Choose a plateau…</option>
            {plateaus.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="gap-order">Which comes first</label>
          <select
            id="gap-order"
            value={later ? "this" : "other"}
            onChange={(e) => setLater(e.currentTarget.value === "this")}
          >
            <option value="this">This one, then the other</option>
            <option value="other">The other, then this one</option>
          </select>
        </div>
      </div>
      {error ? (
        <p class="form-error" role="alert">
          {error}
        </p>
      ) : result ? (
        <div class="gap-result">
          <p>
            From <strong>{result.from.name}</strong> to <strong>{result.to.name}</strong>:{" "}
            {result.elements.added.length} added, {result.elements.removed.length} removed,{" "}
            {result.elements.kept.length} kept.
          </p>
          {list("Added", result.elements.added)}
          {list("Removed", result.elements.removed)}
          {list("Kept", result.elements.kept)}
          {result.gaps.length ? (
            <>
              <h5>Gaps ({result.gaps.length})</h5>
              <ul class="ref-list" aria-label="Gaps">
                {result.gaps.map((g) => (
                  <li key={g.id}>
                    <ElementLink id={g.id} name={g.name} />
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          <img
            class="gap-image"
            src={`/api/analysis/gap/image?from=${q(from)}&to=${q(to)}`}
            alt={`The difference from ${result.from.name} to ${result.to.name}: added elements green, removed red, kept grey`}
          />
        </div>
      ) : null}
    </section>
  );
}

/** Analysis of the selected element: impact, derived relationships, and for a plateau the comparison with another. */
export function ElementAnalysis(props: { element: Element; editable: boolean }) {
  return (
    <div class="element-analysis">
      <div class="panel-actions">
        <ImpactAnalysis key={`i-${props.element.id}`} element={props.element} editable={props.editable} />
      </div>
      <div class="panel-actions">
        <DerivedRelationships key={`d-${props.element.id}`} element={props.element} editable={props.editable} />
      </div>
      {props.element.type === "Plateau" ? <PlateauComparison element={props.element} /> : null}
    </div>
  );
}
