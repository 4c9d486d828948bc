import { createSceneRenderer, type DrawnConnection, type IconResolver } from "@ams/model/render";
import { NOTATION_DEFAULTS } from "@ams/shared";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { Element } from "../api/types.ts";
import { useStore } from "../app/store.ts";
import { model } from "../modeler/model-store.ts";
import { moveChanges, topSelected } from "./arrange.ts";
import { type Drag, normalizedRect, type Point, resizedBox } from "./drag.ts";
import { editor, setSelected, setViewport } from "./editor-store.ts";
import { ConnectionView, NodeView } from "./node-view.tsx";
import { changeGeometry } from "./operations.ts";
import { OthersSelections } from "./others-selections.tsx";
import { Overlay } from "./overlay.tsx";
import { boxesOf, renderConnectionsOf, renderNodeOf } from "./scene-input.ts";
import { containerAt, descendantsOf, type FlatNode, type ViewState } from "./view-model.ts";

export type CanvasProps = {
  readOnly: boolean;
  /** A connection was drawn from one node to another: the editor asks which relationship it shows. */
  onConnect(source: FlatNode, target: FlatNode): void;
  /** A click while a palette type is chosen: create an element of that type there. */
  onPlace(at: Point, parentId: string | null): void;
  /** An element dragged from the model tree was dropped on the canvas. */
  onDropElement(elementId: string, at: Point, parentId: string | null): void;
  onKeyDown(e: KeyboardEvent): void;
};

type Cached = { node: unknown; el: Element | undefined; hasChildren: boolean; fill: string | undefined; html: string };

function elementLabel(n: FlatNode, elements: ReadonlyMap<string, Element>): string {
  const el = n.element_id ? elements.get(n.element_id) : undefined;
  if (el) return `${el.name || "(unnamed)"}, ${el.type.replace(/([a-z])([A-Z])/g, "$1 $2")}`;
  return n.label || n.kind;
}

export function Canvas(props: CanvasProps) {
  const { view, selected, viewport, placing, connecting, highlight, heat } = useStore(editor);
  const elements = useStore(model, (s) => s.elements);
  const relationships = useStore(model, (s) => s.relationships);
  const plugins = useStore(model, (s) => s.plugins);
  const svgRef = useRef<SVGSVGElement>(null);
  const [drag, setDragState] = useState<Drag | null>(null);
  const dragRef = useRef<Drag | null>(null);
  const setDrag = (d: Drag | null) => {
    dragRef.current = d;
    setDragState(d);
  };

  const scene = useMemo(() => {
    const icons = new Map<string, string>();
    for (const p of plugins) for (const i of p.icons) icons.set(i.slug, i.url);
    const resolveIcon: IconResolver = (value) => {
      const url = icons.get(value);
      return url ? { href: url } : undefined;
    };
    return createSceneRenderer({ idPrefix: "cv-", resolveIcon });
  }, [plugins]);
  const cache = useRef(new Map<string, Cached>());
  useEffect(() => cache.current.clear(), [scene]);

  // Live geometry while dragging: moved nodes get an offset, a resized node its new box.
  const offset = drag?.kind === "move" ? { ids: drag.ids, dx: drag.dx, dy: drag.dy } : undefined;
  const resized = drag?.kind === "resize" ? new Map([[drag.node.id, drag.box]]) : undefined;
  const bendOverride = drag?.kind === "bend" ? { id: drag.connId, bendpoints: drag.points } : undefined;

  const settled = useMemo(() => {
    if (!view) return new Map<string, DrawnConnection>();
    return scene.connections(boxesOf(view, elements), renderConnectionsOf(view, relationships));
  }, [view, elements, relationships, scene]);

  let drawn = settled;
  if (view && (offset || resized || bendOverride)) {
    const moving = new Set<string>(offset?.ids ?? []);
    if (resized) for (const id of resized.keys()) moving.add(id);
    const touched = new Set<string>();
    for (const c of view.connections.values())
      if (moving.has(c.source) || moving.has(c.target) || c.id === bendOverride?.id) touched.add(c.id);
    // Connections ending on a touched connection move too.
    let grew = true;
    while (grew) {
      grew = false;
      for (const c of view.connections.values())
        if (!touched.has(c.id) && (touched.has(c.source) || touched.has(c.target))) {
          touched.add(c.id);
          grew = true;
        }
    }
    const live = scene.connections(
      boxesOf(view, elements, offset, resized),
      renderConnectionsOf(view, relationships, bendOverride),
      touched,
    );
    drawn = new Map(settled);
    for (const id of touched) {
      const d = live.get(id);
      if (d) drawn.set(id, d);
      else drawn.delete(id);
    }
  }

  if (!view) return null;
  const parents = new Set<string>();
  for (const n of view.nodes.values()) if (n.parentId) parents.add(n.parentId);

  const nodeHtml = (id: string, box?: { x: number; y: number; w: number; h: number }): string => {
    const n = view.nodes.get(id);
    if (!n) return "";
    const el = n.element_id ? elements.get(n.element_id) : undefined;
    const hasChildren = parents.has(id);
    const fill = n.element_id ? heat?.fills.get(n.element_id) : undefined;
    const c = cache.current.get(id);
    if (!box && c && c.node === n && c.el === el && c.hasChildren === hasChildren && c.fill === fill) return c.html;
    const input = renderNodeOf(view, id, elements, fill);
    const boxes = boxesOf({ ...view, nodes: new Map([[id, box ? { ...n, ...box } : n]]) }, elements);
    const drawn = boxes.get(id);
    if (!input || !drawn) return "";
    const html = scene.node(input, drawn, hasChildren);
    if (!box) cache.current.set(id, { node: n, el, hasChildren, fill, html });
    return html;
  };

  const toWorld = (e: { clientX: number; clientY: number }): Point => {
    const r = svgRef.current?.getBoundingClientRect() ?? { left: 0, top: 0 };
    return {
      x: (e.clientX - r.left - viewport.panX) / viewport.zoom,
      y: (e.clientY - r.top - viewport.panY) / viewport.zoom,
    };
  };

  const onPointerDown = (e: PointerEvent) => {
    const svg = svgRef.current;
    if (!svg) return;
    svg.focus({ preventScroll: true });
    const at = toWorld(e);
    const hit = e.target as SVGElement;
    const find = (selector: string) => hit.closest(selector) as HTMLElement | SVGElement | null;
    if (e.button === 1 || (e.button === 0 && spaceHeld.current)) {
      svg.setPointerCapture(e.pointerId);
      setDrag({ kind: "pan", screen: { x: e.clientX, y: e.clientY }, panX: viewport.panX, panY: viewport.panY });
      return;
    }
    if (e.button !== 0) return;
    if (placing && !props.readOnly) {
      props.onPlace(at, containerAt(view, at.x, at.y, new Set())?.id ?? null);
      return;
    }
    const handle = find("[data-handle]");
    const bend = find("[data-bend]");
    const mid = find("[data-mid]");
    const nodeEl = find("[data-node-id]");
    const connEl = find("[data-conn-id]");
    svg.setPointerCapture(e.pointerId);
    if (!props.readOnly && handle) {
      const node = view.nodes.get(handle.dataset.node ?? "");
      const corner = handle.dataset.handle;
      if (!node || !corner) return;
      setDrag({
        kind: "resize",
        start: at,
        node,
        handle: corner,
        box: { x: node.x, y: node.y, w: node.w, h: node.h },
      });
      return;
    }
    const bendOrMid = bend ?? mid;
    if (!props.readOnly && bendOrMid) {
      const el = bendOrMid;
      const conn = view.connections.get(el.dataset.conn ?? "");
      if (!conn) return;
      const index = Number(el.dataset.index);
      const points = conn.bendpoints.map((p) => ({ ...p }));
      if (mid) points.splice(index, 0, { x: Math.round(at.x), y: Math.round(at.y) });
      setDrag({ kind: "bend", connId: conn.id, index, points, original: conn.bendpoints, inserted: Boolean(mid) });
      return;
    }
    const nodeId = nodeEl?.dataset.nodeId;
    const node = nodeId ? view.nodes.get(nodeId) : undefined;
    if (nodeId && node) {
      const id = nodeId;
      if (connecting && !props.readOnly) {
        setDrag({ kind: "connect", source: node, at });
        return;
      }
      let sel = new Set(selected);
      if (e.shiftKey || e.ctrlKey || e.metaKey) {
        if (sel.has(id)) sel.delete(id);
        else sel.add(id);
      } else if (!sel.has(id)) sel = new Set([id]);
      setSelected(sel);
      if (props.readOnly || !sel.has(id)) return;
      const nodes = topSelected(view, sel);
      const ids = new Set(nodes.map((n) => n.id));
      for (const d of descendantsOf(view, ids)) ids.add(d);
      setDrag({ kind: "move", start: at, nodes, ids, dx: 0, dy: 0, at });
      return;
    }
    const connId = connEl?.dataset.connId;
    if (connId) {
      const id = connId;
      const sel = e.shiftKey ? new Set(selected) : new Set<string>();
      if (sel.has(id)) sel.delete(id);
      else sel.add(id);
      setSelected(sel);
      return;
    }
    setDrag({ kind: "band", start: at, end: at, additive: e.shiftKey });
    if (!e.shiftKey) setSelected([]);
  };

  const frame = useRef(0);
  const onPointerMove = (e: PointerEvent) => {
    const d = dragRef.current;
    if (!d) return;
    const at = toWorld(e);
    const screen = { x: e.clientX, y: e.clientY };
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(() => {
      switch (d.kind) {
        case "move":
          setDrag({ ...d, dx: Math.round(at.x - d.start.x), dy: Math.round(at.y - d.start.y), at });
          break;
        case "resize": {
          const n = d.node;
          setDrag({
            ...d,
            box: resizedBox({ x: n.x, y: n.y, w: n.w, h: n.h }, d.handle, at.x - d.start.x, at.y - d.start.y),
          });
          break;
        }
        case "bend": {
          const points = d.points.slice();
          points[d.index] = { x: Math.round(at.x), y: Math.round(at.y) };
          setDrag({ ...d, points });
          break;
        }
        case "band":
          setDrag({ ...d, end: at });
          break;
        case "pan":
          setViewport({ ...viewport, panX: d.panX + screen.x - d.screen.x, panY: d.panY + screen.y - d.screen.y });
          break;
        case "connect":
          setDrag({ ...d, at });
          break;
      }
    });
  };

  const onPointerUp = (e: PointerEvent) => {
    cancelAnimationFrame(frame.current);
    const d = dragRef.current;
    setDrag(null);
    if (!d) return;
    const at = toWorld(e);
    if (d.kind === "move") {
      const dx = Math.round(at.x - d.start.x);
      const dy = Math.round(at.y - d.start.y);
      if (dx === 0 && dy === 0) return;
      // Dropped where? The innermost container under the pointer becomes the parent (none: top level).
      const container = containerAt(view, at.x, at.y, d.ids);
      const parentId = container?.id ?? null;
      const { changes, bends } = moveChanges(
        view,
        d.nodes.map((node) => ({ node, dx, dy, parentId })),
      );
      changeGeometry(d.nodes.length === 1 ? "Move" : `Move ${d.nodes.length} nodes`, changes, bends);
    } else if (d.kind === "resize") {
      // The pointer's final position decides, not the last frame drawn (moves are applied once per frame).
      const n = d.node;
      d.box = resizedBox({ x: n.x, y: n.y, w: n.w, h: n.h }, d.handle, at.x - d.start.x, at.y - d.start.y);
      if (d.box.x === n.x && d.box.y === n.y && d.box.w === n.w && d.box.h === n.h) return;
      const g = { x: n.x, y: n.y, w: n.w, h: n.h, parentId: n.parentId };
      changeGeometry("Resize", [{ id: n.id, before: g, after: { ...g, ...d.box } }]);
    } else if (d.kind === "bend") {
      d.points[d.index] = { x: Math.round(at.x), y: Math.round(at.y) };
      const moved = JSON.stringify(d.points) !== JSON.stringify(d.original);
      if (moved)
        changeGeometry(
          d.inserted ? "Add bendpoint" : "Move bendpoint",
          [],
          [{ id: d.connId, before: d.original, after: d.points }],
        );
    } else if (d.kind === "band") {
      const r = normalizedRect(d.start, at);
      if (r.w < 2 && r.h < 2) return;
      const sel = d.additive ? new Set(selected) : new Set<string>();
      for (const n of view.nodes.values())
        if (n.x >= r.x && n.y >= r.y && n.x + n.w <= r.x + r.w && n.y + n.h <= r.y + r.h) sel.add(n.id);
      setSelected(sel);
    } else if (d.kind === "connect") {
      const target = containerAt(view, at.x, at.y, new Set());
      if (target) props.onConnect(d.source, target);
    }
  };

  // Double-clicking a bendpoint removes it.
  const onDblClick = (e: MouseEvent) => {
    if (props.readOnly) return;
    // Pointer capture makes the svg the event's target: look at what is under the pointer instead.
    const bend = document.elementFromPoint(e.clientX, e.clientY)?.closest("[data-bend]") as SVGElement | null;
    if (!bend) return;
    const conn = view.connections.get(bend.dataset.conn ?? "");
    if (!conn) return;
    const after = conn.bendpoints.filter((_, i) => i !== Number(bend.dataset.index));
    changeGeometry("Remove bendpoint", [], [{ id: conn.id, before: conn.bendpoints, after }]);
  };

  const onWheel = (e: WheelEvent) => {
    e.preventDefault();
    const svg = svgRef.current;
    if (!svg) return;
    const r = svg.getBoundingClientRect();
    if (e.ctrlKey || e.metaKey) {
      const zoom = Math.min(4, Math.max(0.1, viewport.zoom * Math.exp(-e.deltaY / 300)));
      const sx = e.clientX - r.left;
      const sy = e.clientY - r.top;
      const wx = (sx - viewport.panX) / viewport.zoom;
      const wy = (sy - viewport.panY) / viewport.zoom;
      setViewport({ zoom, panX: sx - wx * zoom, panY: sy - wy * zoom });
    } else setViewport({ ...viewport, panX: viewport.panX - e.deltaX, panY: viewport.panY - e.deltaY });
  };

  const spaceHeld = useRef(false);
  useEffect(() => {
    const down = (e: KeyboardEvent) => {
      if (e.code === "Space" && e.target === svgRef.current) spaceHeld.current = true;
    };
    const up = (e: KeyboardEvent) => {
      if (e.code === "Space") spaceHeld.current = false;
    };
    window.addEventListener("keydown", down);
    window.addEventListener("keyup", up);
    return () => {
      window.removeEventListener("keydown", down);
      window.removeEventListener("keyup", up);
    };
  }, []);
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    svg.addEventListener("wheel", onWheel, { passive: false });
    return () => svg.removeEventListener("wheel", onWheel);
  });

  const onDragOver = (e: DragEvent) => {
    if (!props.readOnly && e.dataTransfer?.types.includes("application/x-ams-element")) {
      e.preventDefault();
      e.dataTransfer.dropEffect = "copy";
    }
  };
  const onDrop = (e: DragEvent) => {
    const id = e.dataTransfer?.getData("application/x-ams-element");
    if (!id || props.readOnly) return;
    e.preventDefault();
    const at = toWorld(e);
    props.onDropElement(id, at, containerAt(view, at.x, at.y, new Set())?.id ?? null);
  };

  const defs = scene.defs();
  const resizing = drag?.kind === "resize" ? drag : null;
  const cursor = placing ? "crosshair" : connecting ? "alias" : drag?.kind === "pan" ? "grabbing" : undefined;
  return (
    <svg
      ref={svgRef}
      class="canvas"
      tabindex={0}
      role="application"
      aria-label={`Diagram of the view ${view.name}. Tab into it, then [ and ] select the previous or next node, arrow keys move the selection, Delete removes it from the view, Ctrl+Z undoes.`}
      aria-roledescription="diagram editor"
      data-cursor={cursor}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => setDrag(null)}
      onDblClick={onDblClick}
      onKeyDown={props.onKeyDown}
      onDragOver={onDragOver}
      onDrop={onDrop}
    >
      <defs dangerouslySetInnerHTML={{ __html: defs }} />
      <g
        transform={`translate(${viewport.panX} ${viewport.panY}) scale(${viewport.zoom})`}
        font-family={NOTATION_DEFAULTS.fontFamily}
        font-size="12"
      >
        <g class="nodes">
          {view.order.map((id) => {
            const n = view.nodes.get(id);
            if (!n) return null;
            const html = resizing?.node.id === id ? nodeHtml(id, resizing.box) : nodeHtml(id);
            const moved = offset?.ids.has(id);
            const mark = !highlight
              ? undefined
              : n.element_id && highlight.elementIds.has(n.element_id)
                ? "hit"
                : n.kind === "element"
                  ? "dim"
                  : undefined;
            return (
              <NodeView
                key={id}
                id={id}
                html={html}
                dx={moved && offset ? offset.dx : 0}
                dy={moved && offset ? offset.dy : 0}
                label={elementLabel(n, elements)}
                mark={mark}
              />
            );
          })}
        </g>
        <g class="connections">
          {[...drawn].map(([id, d]) => (
            <ConnectionView key={id} id={id} html={d.markup} />
          ))}
        </g>
        {highlight ? <HighlightOutlines view={view} elementIds={highlight.elementIds} /> : null}
        <OthersSelections view={view} zoom={viewport.zoom} />
        <Overlay
          view={view}
          drawn={drawn}
          selected={selected}
          drag={drag}
          readOnly={props.readOnly}
          zoom={viewport.zoom}
        />
      </g>
    </svg>
  );
}

export type { ViewState };

/** A thick outline around each node of the elements an analysis shows on the view (the others are dimmed). */
function HighlightOutlines(props: { view: ViewState; elementIds: ReadonlySet<string> }) {
  return (
    <g class="impact-outlines">
      {[...props.view.nodes.values()]
        .filter((n) => n.element_id && props.elementIds.has(n.element_id))
        .map((n) => (
          <rect key={n.id} x={n.x - 4} y={n.y - 4} width={n.w + 8} height={n.h + 8} rx={6} class="impact-outline" />
        ))}
    </g>
  );
}
