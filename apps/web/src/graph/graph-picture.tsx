import { LAYER_COLORS } from "@ams/shared";
import { useMemo, useRef, useState } from "preact/hooks";
import { forceLayout } from "./layout.ts";

export type PictureNode = { id: string; labels: string[]; properties: Record<string, unknown> };
export type PictureRelationship = {
  id: string;
  type: string;
  start: string;
  end: string;
  properties: Record<string, unknown>;
};

const W = 120;
const H = 36;

export function nodeColor(n: PictureNode): string {
  const layer = n.properties.layer;
  if (typeof layer === "string" && layer in LAYER_COLORS) return LAYER_COLORS[layer as keyof typeof LAYER_COLORS];
  if (n.labels.includes("View")) return "#e3e7ee";
  return "#f1f1f1";
}

export function nodeCaption(n: PictureNode): string {
  const name = n.properties.name;
  const text = typeof name === "string" && name ? name : (n.labels.at(-1) ?? n.id);
  return text.length > 18 ? `${text.slice(0, 17)}…` : text;
}

/**
 * The nodes and relationships of a result as a picture: laid out by force, coloured by ArchiMate layer, relationship
 * types written on the lines. Drag the background to pan, wheel to zoom, click (or Enter on) a node to inspect it.
 */
export function GraphPicture(props: {
  nodes: PictureNode[];
  relationships: PictureRelationship[];
  selected: string | null;
  onSelect: (id: string | null) => void;
}) {
  const positions = useMemo(
    () =>
      forceLayout(
        props.nodes.map((n) => n.id),
        props.relationships.map((r) => [r.start, r.end]),
      ),
    [props.nodes, props.relationships],
  );
  const bounds = useMemo(() => {
    let minX = Number.POSITIVE_INFINITY;
    let minY = Number.POSITIVE_INFINITY;
    let maxX = Number.NEGATIVE_INFINITY;
    let maxY = Number.NEGATIVE_INFINITY;
    for (const p of positions.values()) {
      minX = Math.min(minX, p.x);
      minY = Math.min(minY, p.y);
      maxX = Math.max(maxX, p.x);
      maxY = Math.max(maxY, p.y);
    }
    if (!Number.isFinite(minX)) return { x: -100, y: -100, w: 200, h: 200 };
    return { x: minX - W, y: minY - H, w: maxX - minX + 2 * W, h: maxY - minY + 2 * H };
  }, [positions]);
  const [view, setView] = useState<{ x: number; y: number; w: number; h: number } | null>(null);
  const box = view ?? bounds;
  const svg = useRef<SVGSVGElement>(null);
  const drag = useRef<{ x: number; y: number; box: typeof box } | null>(null);

  const scale = () => {
    const r = svg.current?.getBoundingClientRect();
    return r && r.width > 0 ? box.w / r.width : 1;
  };
  const zoom = (factor: number, cx = box.x + box.w / 2, cy = box.y + box.h / 2) =>
    setView({ x: cx - (cx - box.x) * factor, y: cy - (cy - box.y) * factor, w: box.w * factor, h: box.h * factor });

  return (
    <div class="graph-picture">
      <div class="graph-tools" role="toolbar" aria-label="Picture">
        <button type="button" onClick={() => zoom(0.8)} aria-label="Zoom in">
          +
        </button>
        <button type="button" onClick={() => zoom(1.25)} aria-label="Zoom out">
          −
        </button>
        <button type="button" onClick={() => setView(null)}>
          Fit
        </button>
      </div>
      <svg
        ref={svg}
        class="graph-svg"
        role="img"
        aria-label={`Graph of ${props.nodes.length} nodes and ${props.relationships.length} relationships`}
        viewBox={`${box.x} ${box.y} ${box.w} ${box.h}`}
        onWheel={(e) => {
          e.preventDefault();
          const r = svg.current?.getBoundingClientRect();
          if (!r) return;
          const cx = box.x + ((e.clientX - r.left) / r.width) * box.w;
          const cy = box.y + ((e.clientY - r.top) / r.height) * box.h;
          zoom(e.deltaY > 0 ? 1.15 : 1 / 1.15, cx, cy);
        }}
        onPointerDown={(e) => {
          if ((e.target as Element).closest("[data-node]")) return;
          drag.current = { x: e.clientX, y: e.clientY, box };
          (e.currentTarget as SVGSVGElement).setPointerCapture(e.pointerId);
        }}
        onPointerMove={(e) => {
          const d = drag.current;
          if (!d) return;
          const s = scale();
          setView({ ...d.box, x: d.box.x - (e.clientX - d.x) * s, y: d.box.y - (e.clientY - d.y) * s });
        }}
        onPointerUp={() => {
          drag.current = null;
        }}
      >
        <defs>
          <marker
            id="graph-arrow"
            viewBox="0 0 10 10"
            refX="10"
            refY="5"
            markerWidth="7"
            markerHeight="7"
            orient="auto"
          >
            <path d="M0,0 L10,5 L0,10 z" fill="#59636f" />
          </marker>
        </defs>
        <g class="graph-edges">
          {props.relationships.map((r) => {
            const a = positions.get(r.start);
            const b = positions.get(r.end);
            if (!a || !b) return null;
            const dx = b.x - a.x;
            const dy = b.y - a.y;
            const d = Math.sqrt(dx * dx + dy * dy) || 1;
            // Stop at the target box's edge so the arrow shows.
            const t = Math.min(Math.abs(W / 2 / (dx || 1e-9)), Math.abs(H / 2 / (dy || 1e-9)), 1) * d;
            const ex = b.x - (dx / d) * t;
            const ey = b.y - (dy / d) * t;
            return (
              <g key={r.id} data-relationship={r.id}>
                <line x1={a.x} y1={a.y} x2={ex} y2={ey} marker-end="url(#graph-arrow)" />
                <text x={(a.x + b.x) / 2} y={(a.y + b.y) / 2 - 3} class="graph-edge-label">
                  {r.type}
                </text>
              </g>
            );
          })}
        </g>
        <g class="graph-nodes">
          {props.nodes.map((n) => {
            const p = positions.get(n.id);
            if (!p) return null;
            const caption = nodeCaption(n);
            return (
              // biome-ignore lint/a11y/useSemanticElements: SVG has no button element; the group is focusable and keyed
              <g
                key={n.id}
                data-node={n.id}
                class={props.selected === n.id ? "graph-node selected" : "graph-node"}
                transform={`translate(${p.x - W / 2},${p.y - H / 2})`}
                tabIndex={0}
                role="button"
                aria-label={`${caption} (${n.labels.filter((l) => l !== "Element").join(", ")})`}
                onClick={() => props.onSelect(n.id)}
                onKeyDown={(e) => {
                  if (e.key === "Enter" || e.key === " ") {
                    e.preventDefault();
                    props.onSelect(n.id);
                  }
                }}
              >
                <rect width={W} height={H} rx={6} fill={nodeColor(n)} />
                <text x={W / 2} y={H / 2 + 4}>
                  {caption}
                </text>
              </g>
            );
          })}
        </g>
      </svg>
    </div>
  );
}
