import { useEffect, useRef, useState } from "preact/hooks";
import { describeError } from "../api/client.ts";
import { useStore } from "../app/store.ts";
import { isMenuKey, openElementMenu } from "../modeler/element-menu.tsx";
import { model } from "../modeler/model-store.ts";
import { ConfirmDialog } from "../ui/dialog.tsx";
import { words } from "../ui/form.tsx";
import { notify, notifyError } from "../ui/notices.tsx";
import { alignChanges, distributeChanges, moveChanges, topSelected } from "./arrange.ts";
import { Canvas } from "./canvas.tsx";
import { CanvasLegend } from "./colour-by.tsx";
import { ConnectDialog } from "./connect-dialog.tsx";
import { editor, setSelected, setViewport } from "./editor-store.ts";
import { downloadViewImage } from "./export-image.ts";
import { clearHistory, history, redo, undo } from "./history.ts";
import { newId } from "./ids.ts";
import {
  addToView,
  changeGeometry,
  connect,
  createElementOnView,
  deleteFromModel,
  deleteFromView,
  loadView,
} from "./operations.ts";
import { Palette } from "./palette.tsx";
import { ViewToolbar } from "./toolbar.tsx";
import { boundsOf, type FlatNode } from "./view-model.ts";

const DEFAULT_SIZE = { w: 120, h: 55 };

/** Zoom and pan so the whole diagram fits the canvas (never above 100%). */
export function fitToScreen(container: HTMLElement | null): void {
  const view = editor.get().view;
  if (!view || !container) return;
  const b = boundsOf(view.nodes.values());
  const { width, height } = container.getBoundingClientRect();
  if (!b || width === 0) {
    setViewport({ zoom: 1, panX: 20, panY: 20 });
    return;
  }
  const zoom = Math.min(1, (width - 40) / Math.max(b.w, 1), (height - 40) / Math.max(b.h, 1));
  setViewport({ zoom, panX: 20 - b.x * zoom + (width - 40 - b.w * zoom) / 2, panY: 20 - b.y * zoom });
}

export function ViewEditor(props: { viewId: string; readOnly: boolean }) {
  const { view, selected } = useStore(editor);
  const elements = useStore(model, (s) => s.elements);
  const relationships = useStore(model, (s) => s.relationships);
  const containerRef = useRef<HTMLDivElement>(null);
  const [connectAsk, setConnectAsk] = useState<{ source: FlatNode; target: FlatNode } | null>(null);
  const [confirmModelDelete, setConfirmModelDelete] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    clearHistory();
    editor.set((s) => ({ ...s, view: null, selected: new Set(), placing: null, connecting: false, highlight: null }));
    setError(null);
    loadView(props.viewId)
      .then(() => live && requestAnimationFrame(() => fitToScreen(containerRef.current)))
      .catch((err) => live && setError(describeError(err)));
    return () => {
      live = false;
    };
  }, [props.viewId]);

  // Right-click on an element's node: select it and open the element context menu there (once the canvas is drawn).
  const drawn = !error && view?.id === props.viewId;
  useEffect(() => {
    const wrap = containerRef.current;
    if (!wrap) return;
    const onContextMenu = (e: MouseEvent) => {
      const hit = (e.target as Element).closest?.("[data-node-id]") as SVGElement | null;
      const node = hit ? editor.get().view?.nodes.get(hit.dataset.nodeId ?? "") : undefined;
      if (!node?.element_id) return;
      e.preventDefault();
      setSelected([node.id]);
      openElementMenu(node.element_id, { x: e.clientX, y: e.clientY }, wrap.querySelector("svg.canvas"));
    };
    wrap.addEventListener("contextmenu", onContextMenu);
    return () => wrap.removeEventListener("contextmenu", onContextMenu);
  }, [drawn]);

  if (error)
    return (
      <p class="form-error" role="alert">
        {error}
      </p>
    );
  if (!view || view.id !== props.viewId)
    return (
      <p class="loading" aria-busy="true">
        Opening the view…
      </p>
    );

  const elementOf = (n: FlatNode) => (n.element_id ? elements.get(n.element_id) : undefined);

  const onConnect = (source: FlatNode, target: FlatNode) => {
    editor.set((s) => ({ ...s, connecting: false }));
    if (source.kind !== "element" || target.kind !== "element") {
      // Notes and groups are joined by plain lines, which carry no relationship.
      const conn = {
        id: newId(),
        kind: "line",
        relationship_id: null,
        source: source.id,
        target: target.id,
        bendpoints: [],
        revision: 0, // not saved yet: the server's answer carries the real one
      };
      addToView("Connect", [], [conn]);
      return;
    }
    setConnectAsk({ source, target });
  };

  const onPlace = (at: { x: number; y: number }, parentId: string | null) => {
    const placing = editor.get().placing;
    if (!placing) return;
    editor.set((s) => ({ ...s, placing: null }));
    const node = {
      id: newId(),
      parentId,
      x: Math.round(at.x - DEFAULT_SIZE.w / 2),
      y: Math.round(at.y - DEFAULT_SIZE.h / 2),
      ...DEFAULT_SIZE,
    };
    if (placing === "note" || placing === "group") {
      const kind = placing === "note" ? "label" : "container";
      const size = placing === "group" ? { w: 240, h: 160 } : { w: 160, h: 60 };
      addToView(placing === "note" ? "New note" : "New group", [
        { ...node, ...size, kind, element_id: null, label: placing === "note" ? "Note" : "Group" },
      ]);
      return;
    }
    createElementOnView(placing, words(placing), node);
  };

  const onDropElement = (elementId: string, at: { x: number; y: number }, parentId: string | null) => {
    const el = elements.get(elementId);
    if (!el) return;
    const node: FlatNode = {
      id: newId(),
      kind: "element",
      element_id: elementId,
      parentId,
      x: Math.round(at.x - DEFAULT_SIZE.w / 2),
      y: Math.round(at.y - DEFAULT_SIZE.h / 2),
      ...DEFAULT_SIZE,
    };
    // Relationships between the dropped element and elements already shown are drawn too (as Archi does).
    const shown = new Map<string, string>();
    for (const n of view.nodes.values()) if (n.element_id && !shown.has(n.element_id)) shown.set(n.element_id, n.id);
    const drawnRels = new Set([...view.connections.values()].map((c) => c.relationship_id));
    const conns = [];
    for (const r of relationships.values()) {
      if (drawnRels.has(r.id)) continue;
      const other = r.source === elementId ? r.target : r.target === elementId ? r.source : null;
      const otherNode = other === elementId ? node.id : other ? shown.get(other) : undefined;
      if (!otherNode) continue;
      conns.push({
        id: newId(),
        kind: "relationship",
        relationship_id: r.id,
        source: r.source === elementId ? node.id : otherNode,
        target: r.target === elementId ? node.id : otherNode,
        bendpoints: [],
        revision: 0, // not saved yet: the server's answer carries the real one
      });
    }
    addToView(`Add ${el.name || words(el.type)}`, [node], conns);
  };

  const run = (p: Promise<unknown>) => p.catch(notifyError);
  const onKeyDown = (e: KeyboardEvent) => {
    const mod = e.ctrlKey || e.metaKey;
    // The latest state, not this render's: keys repeat faster than the screen re-renders.
    const { selected: sel, view: current } = editor.get();
    if (!current) return;
    if (isMenuKey(e)) {
      // The element context menu for the one selected element node, beside it.
      const [only] = sel.size === 1 ? [...sel] : [];
      const node = only ? current.nodes.get(only) : undefined;
      if (!node?.element_id) return;
      e.preventDefault();
      const drawn = containerRef.current?.querySelector(`[data-node-id="${CSS.escape(node.id)}"]`);
      const r = (drawn ?? containerRef.current)?.getBoundingClientRect();
      openElementMenu(
        node.element_id,
        { x: (r?.left ?? 0) + 16, y: (r?.bottom ?? 0) - 8 },
        e.currentTarget as SVGElement,
      );
      return;
    }
    if (mod && e.key.toLowerCase() === "z" && !e.shiftKey) {
      e.preventDefault();
      if (!props.readOnly) run(undo().then((l) => l && notify(`Undone: ${l}`)));
    } else if (mod && (e.key.toLowerCase() === "y" || (e.key.toLowerCase() === "z" && e.shiftKey))) {
      e.preventDefault();
      if (!props.readOnly) run(redo().then((l) => l && notify(`Redone: ${l}`)));
    } else if (mod && e.key.toLowerCase() === "a") {
      e.preventDefault();
      setSelected([...current.nodes.keys()]);
    } else if (e.key === "]" || e.key === "[") {
      // Keyboard selection: step through the nodes in drawing order.
      e.preventDefault();
      const order = current.order;
      if (order.length === 0) return;
      const at = order.findIndex((id) => sel.has(id));
      const step = e.key === "]" ? 1 : -1;
      const next = at < 0 ? (step > 0 ? 0 : order.length - 1) : (at + step + order.length) % order.length;
      const chosen = order[next];
      if (chosen) setSelected([chosen]);
    } else if (e.key === "Escape") {
      editor.set((s) => ({ ...s, selected: new Set(), placing: null, connecting: false }));
    } else if ((e.key === "Delete" || e.key === "Backspace") && !props.readOnly && sel.size) {
      e.preventDefault();
      run(deleteFromView(sel));
    } else if (e.key.startsWith("Arrow") && !props.readOnly && sel.size) {
      e.preventDefault();
      const step = e.shiftKey ? 10 : 1;
      const dx = e.key === "ArrowLeft" ? -step : e.key === "ArrowRight" ? step : 0;
      const dy = e.key === "ArrowUp" ? -step : e.key === "ArrowDown" ? step : 0;
      // From the latest state: each press moves from where the previous one left the node, drawn or not yet.
      const { changes, bends } = moveChanges(
        current,
        topSelected(current, sel).map((node) => ({ node, dx, dy })),
      );
      run(changeGeometry("Nudge", changes, bends));
    } else if ((e.key === "+" || e.key === "=") && !mod) {
      zoomBy(1.25);
    } else if (e.key === "-" && !mod) {
      zoomBy(0.8);
    }
  };

  const zoomBy = (f: number) => {
    const v = editor.get().viewport;
    const r = containerRef.current?.getBoundingClientRect();
    const cx = (r?.width ?? 800) / 2;
    const cy = (r?.height ?? 600) / 2;
    const zoom = Math.min(4, Math.max(0.1, v.zoom * f));
    setViewport({ zoom, panX: cx - ((cx - v.panX) / v.zoom) * zoom, panY: cy - ((cy - v.panY) / v.zoom) * zoom });
  };

  const chosen = topSelected(view, selected);
  // What "Delete from model" would delete: the elements and relationships behind the selection (notes, groups and
  // plain lines belong to the view only).
  const doomed: string[] = [];
  for (const id of selected) {
    const n = view.nodes.get(id);
    const el = n?.element_id ? elements.get(n.element_id) : undefined;
    if (el) doomed.push(`${el.name || "(unnamed)"} (${words(el.type)})`);
    const c = view.connections.get(id);
    const rel = c?.relationship_id ? relationships.get(c.relationship_id) : undefined;
    if (rel) doomed.push(`${rel.name ? `${rel.name} ` : ""}(${words(rel.type)} relationship)`);
  }
  const source = connectAsk ? elementOf(connectAsk.source) : undefined;
  const target = connectAsk ? elementOf(connectAsk.target) : undefined;
  const drawnRels = new Set([...view.connections.values()].map((c) => c.relationship_id));

  return (
    <div class="view-editor">
      <ViewToolbar
        readOnly={props.readOnly}
        selectedCount={chosen.length}
        hasSelection={selected.size > 0}
        hasModelSelection={doomed.length > 0}
        onZoom={zoomBy}
        onFit={() => fitToScreen(containerRef.current)}
        onActualSize={() => {
          // Whole pixels at 100%: crisp lines and text, as in the server's picture.
          const v = editor.get().viewport;
          const r = containerRef.current?.getBoundingClientRect();
          const cx = (r?.width ?? 0) / 2;
          const cy = (r?.height ?? 0) / 2;
          setViewport({
            zoom: 1,
            panX: Math.round(cx - (cx - v.panX) / v.zoom),
            panY: Math.round(cy - (cy - v.panY) / v.zoom),
          });
        }}
        onAlign={(how) => {
          const { changes, bends } = alignChanges(view, chosen, how);
          run(changeGeometry(`Align ${how}`, changes, bends));
        }}
        onDistribute={(axis) => {
          const { changes, bends } = distributeChanges(view, chosen, axis);
          run(changeGeometry(`Distribute ${axis}ly`, changes, bends));
        }}
        onDeleteFromView={() => run(deleteFromView(selected))}
        onDeleteFromModel={() => setConfirmModelDelete(true)}
        onDownload={(format) => run(downloadViewImage(view.id, view.name, format))}
        history={useStore(history)}
        onUndo={() => run(undo().then((l) => l && notify(`Undone: ${l}`)))}
        onRedo={() => run(redo().then((l) => l && notify(`Redone: ${l}`)))}
      />
      <div class="editor-body">
        {props.readOnly ? null : <Palette viewpoint={view.viewpoint} />}
        <div class="canvas-wrap" ref={containerRef}>
          <Canvas
            readOnly={props.readOnly}
            onConnect={onConnect}
            onPlace={onPlace}
            onDropElement={onDropElement}
            onKeyDown={onKeyDown}
          />
          <CanvasLegend />
          {view.nodes.size === 0 ? (
            <p class="canvas-hint">
              {props.readOnly
                ? "This view is empty."
                : "Drag elements from the model tree onto the canvas, or choose a type in the palette and click here."}
            </p>
          ) : null}
        </div>
      </div>
      {connectAsk && source && target ? (
        <ConnectDialog
          source={source}
          target={target}
          existing={[...relationships.values()].filter(
            (r) => r.source === source.id && r.target === target.id && !drawnRels.has(r.id),
          )}
          onClose={() => setConnectAsk(null)}
          onChoose={(choice) => {
            const ask = connectAsk;
            setConnectAsk(null);
            run(connect(ask.source, ask.target, choice));
          }}
        />
      ) : null}
      {confirmModelDelete ? (
        <ConfirmDialog
          title="Delete from model"
          danger
          confirmLabel="Delete from model"
          message={
            <>
              <p>Delete from the whole model:</p>
              <ul>
                {doomed.slice(0, 12).map((name, i) => (
                  <li key={i}>{name}</li>
                ))}
                {doomed.length > 12 ? <li>and {doomed.length - 12} more</li> : null}
              </ul>
              <p>
                They disappear from every view, with the relationships attached to them. This cannot be undone. (To
                remove them from this view only, use "Delete from view".)
              </p>
            </>
          }
          onAnswer={(yes) => {
            setConfirmModelDelete(false);
            if (yes) run(deleteFromModel(selected));
          }}
        />
      ) : null}
    </div>
  );
}
