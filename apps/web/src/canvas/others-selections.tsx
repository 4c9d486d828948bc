import { useStore } from "../app/store.ts";
import { live } from "../live/live-store.ts";
import type { ViewState } from "./view-model.ts";

/**
 * What the others on this view have selected: each such node outlined in the person's colour (dashed, beside this
 * user's own solid outline), with their name above it. A node counts when its id or its element's is selected.
 */
export function OthersSelections(props: { view: ViewState; zoom: number }) {
  const others = useStore(live, (s) => s.others);
  const k = 1 / props.zoom;
  const marks: { key: string; x: number; y: number; w: number; h: number; color: string; name: string }[] = [];
  for (const p of others) {
    if (p.view_id !== props.view.id) continue;
    const chosen = new Set(p.selection);
    for (const n of props.view.nodes.values()) {
      if (!chosen.has(n.id) && !(n.element_id && chosen.has(n.element_id))) continue;
      marks.push({
        key: `${p.client_id}/${p.user.id}/${n.id}`,
        x: n.x,
        y: n.y,
        w: n.w,
        h: n.h,
        color: p.color,
        name: p.user.name,
      });
    }
  }
  if (marks.length === 0) return null;
  return (
    <g class="others-selections">
      {marks.map((m) => (
        <g key={m.key} data-other-selection={m.name}>
          <rect
            x={m.x - 3 * k}
            y={m.y - 3 * k}
            width={m.w + 6 * k}
            height={m.h + 6 * k}
            fill="none"
            stroke={m.color}
            stroke-width={2 * k}
            stroke-dasharray={`${6 * k} ${3 * k}`}
          />
          <text x={m.x} y={m.y - 6 * k} fill={m.color} font-size={11 * k} font-weight="600">
            {m.name}
          </text>
        </g>
      ))}
    </g>
  );
}
