import type { DrawnConnection } from "@ams/model/render";
import { type Drag, HANDLES, handlePoint, normalizedRect, segmentMiddles } from "./drag.ts";
import type { ViewState } from "./view-model.ts";

/**
 * What the editor draws over the diagram: wide invisible strokes that make connections easy to hit, selection
 * outlines, resize handles, bendpoint handles (and segment middles to add one), the rubber band and the line of a
 * connection being drawn. Sizes are divided by the zoom so handles stay the same size on screen.
 */
export function Overlay(props: {
  view: ViewState;
  drawn: ReadonlyMap<string, DrawnConnection>;
  selected: ReadonlySet<string>;
  drag: Drag | null;
  readOnly: boolean;
  zoom: number;
}) {
  const { view, drawn, selected, drag, readOnly, zoom } = props;
  const k = 1 / zoom;
  const hs = 7 * k;
  const moving = drag?.kind === "move" ? drag : null;
  const resizing = drag?.kind === "resize" ? drag : null;
  const pathOf = (points: { x: number; y: number }[]) => points.map((p, i) => `${i ? "L" : "M"}${p.x} ${p.y}`).join("");
  return (
    <g class="overlay">
      <g class="hits">
        {[...drawn].map(([id, d]) => (
          <path key={id} data-conn-id={id} class="conn-hit" d={pathOf(d.points)} stroke-width={10 * k} />
        ))}
      </g>
      {[...selected].map((id) => {
        const n = view.nodes.get(id);
        if (n) {
          const off = moving?.ids.has(id) ? { x: moving.dx, y: moving.dy } : { x: 0, y: 0 };
          const b = resizing?.node.id === id ? resizing.box : { x: n.x + off.x, y: n.y + off.y, w: n.w, h: n.h };
          return (
            <g key={id} class="selection">
              <rect x={b.x} y={b.y} width={b.w} height={b.h} class="selection-outline" stroke-width={1.5 * k} />
              {!readOnly && selected.size === 1
                ? HANDLES.map((h) => {
                    const p = handlePoint(b, h);
                    return (
                      <rect
                        key={h}
                        data-handle={h}
                        data-node={id}
                        class={`handle handle-${h}`}
                        x={p.x - hs / 2}
                        y={p.y - hs / 2}
                        width={hs}
                        height={hs}
                        stroke-width={k}
                      />
                    );
                  })
                : null}
            </g>
          );
        }
        const d = drawn.get(id);
        if (!d) return null;
        const bends = d.points.slice(1, -1);
        return (
          <g key={id} class="selection">
            <path d={pathOf(d.points)} class="selection-line" stroke-width={3 * k} />
            {!readOnly
              ? segmentMiddles(d.points).map((p, i) => (
                  <circle
                    key={`m${i}`}
                    data-mid="1"
                    data-conn={id}
                    data-index={i}
                    class="mid-handle"
                    cx={p.x}
                    cy={p.y}
                    r={4 * k}
                    stroke-width={k}
                  />
                ))
              : null}
            {!readOnly
              ? bends.map((p, i) => (
                  <rect
                    key={`b${i}`}
                    data-bend="1"
                    data-conn={id}
                    data-index={i}
                    class="bend-handle"
                    x={p.x - hs / 2}
                    y={p.y - hs / 2}
                    width={hs}
                    height={hs}
                    stroke-width={k}
                  />
                ))
              : null}
          </g>
        );
      })}
      {drag?.kind === "band"
        ? (() => {
            const r = normalizedRect(drag.start, drag.end);
            return <rect class="rubber-band" x={r.x} y={r.y} width={r.w} height={r.h} stroke-width={k} />;
          })()
        : null}
      {drag?.kind === "connect" ? (
        <line
          class="connect-line"
          x1={drag.source.x + drag.source.w / 2}
          y1={drag.source.y + drag.source.h / 2}
          x2={drag.at.x}
          y2={drag.at.y}
          stroke-width={1.5 * k}
        />
      ) : null}
    </g>
  );
}
