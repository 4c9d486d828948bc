import type { Box, RenderConnection, RenderNode } from "@ams/model/render";
import type { Element, Relationship } from "../api/types.ts";
import { shapeOf, type ViewState } from "./view-model.ts";

const ICON_PACK = "Service Plugin IconPack";

/** The renderer's input for one node: its element's type, name and plugin icon come from the model. */
export function renderNodeOf(
  view: ViewState,
  id: string,
  elements: ReadonlyMap<string, Element>,
  /** A heatmap's fill (#rrggbb) drawn instead of the node's own; the stored style is not changed. */
  heatFill?: string,
): RenderNode | null {
  const n = view.nodes.get(id);
  if (!n) return null;
  const el = n.element_id ? elements.get(n.element_id) : undefined;
  const icon = el?.properties[ICON_PACK];
  return {
    id: n.id,
    kind: n.kind,
    x: n.x,
    y: n.y,
    w: n.w,
    h: n.h,
    parentId: n.parentId,
    label: n.label ?? null,
    style: (heatFill ? { ...(n.style ?? {}), fill: rgbOf(heatFill) } : (n.style ?? null)) as RenderNode["style"],
    element: el ? { type: el.type, name: el.name, iconPack: typeof icon === "string" ? icon : null } : null,
  };
}

export function boxesOf(
  view: ViewState,
  elements: ReadonlyMap<string, Element>,
  offset?: { ids: ReadonlySet<string>; dx: number; dy: number },
  resized?: ReadonlyMap<string, { x: number; y: number; w: number; h: number }>,
): Map<string, Box> {
  const boxes = new Map<string, Box>();
  for (const n of view.nodes.values()) {
    const type = n.element_id ? elements.get(n.element_id)?.type : undefined;
    const r = resized?.get(n.id);
    const moved = offset?.ids.has(n.id);
    boxes.set(n.id, {
      x: (r?.x ?? n.x) + (moved && offset ? offset.dx : 0),
      y: (r?.y ?? n.y) + (moved && offset ? offset.dy : 0),
      w: r?.w ?? n.w,
      h: r?.h ?? n.h,
      shape: shapeOf(n, type),
    });
  }
  return boxes;
}

export function renderConnectionsOf(
  view: ViewState,
  relationships: ReadonlyMap<string, Relationship>,
  bendOverride?: { id: string; bendpoints: { x: number; y: number }[] },
): RenderConnection[] {
  const out: RenderConnection[] = [];
  for (const c of view.connections.values()) {
    const r = c.relationship_id ? relationships.get(c.relationship_id) : undefined;
    out.push({
      id: c.id,
      kind: c.kind,
      sourceId: c.source,
      targetId: c.target,
      bendpoints: bendOverride?.id === c.id ? bendOverride.bendpoints : c.bendpoints,
      label: "label" in c ? ((c.label as string | undefined) ?? null) : null,
      style: ("style" in c ? (c.style ?? null) : null) as RenderConnection["style"],
      relationship: r
        ? {
            type: r.type,
            name: r.name,
            accessType: r.access_type ?? null,
            isDirected: r.is_directed ?? null,
            influenceStrength: r.influence_strength ?? null,
          }
        : null,
    });
  }
  return out;
}

function rgbOf(hex: string): { r: number; g: number; b: number } {
  const n = Number.parseInt(hex.slice(1, 7), 16);
  return { r: (n >> 16) & 255, g: (n >> 8) & 255, b: n & 255 };
}
