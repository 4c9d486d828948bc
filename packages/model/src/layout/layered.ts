import { createRequire } from "node:module";
import type { ELK, ElkNode } from "elkjs/lib/elk-api.js";

export type LayoutNode = {
  id: string;
  w: number;
  h: number /** Rank band top to bottom (ArchiMate layer); none: free. */;
  band?: number;
};
export type LayoutEdge = { id: string; source: string; target: string };
export type Point = { x: number; y: number };
export type Layout = {
  positions: Map<string, Point>;
  /** Orthogonal routes between the two boxes (without their end points), by edge id. */
  bendpoints: Map<string, Point[]>;
  width: number;
  height: number;
};

/** ELK (Eclipse Layout Kernel) compiled to JavaScript, run in this thread (the bundled build needs no worker). */
const ElkConstructor = createRequire(import.meta.url)("elkjs/lib/elk.bundled.js") as new () => ELK;
const elk = new ElkConstructor();

/**
 * A layered (Sugiyama) layout by ELK: nodes in rows from top to bottom, edges routed orthogonally, crossings
 * reduced. `band` keeps ArchiMate's reading order (motivation and strategy above business above application above
 * technology) whatever the direction of the relationships: ELK's partitioning puts a lower band on an earlier row.
 */
export async function layeredLayout(nodes: readonly LayoutNode[], edges: readonly LayoutEdge[]): Promise<Layout> {
  const ids = new Set(nodes.map((n) => n.id));
  const banded = nodes.some((n) => n.band !== undefined);
  const graph: ElkNode = {
    id: "root",
    layoutOptions: {
      "elk.algorithm": "layered",
      "elk.direction": "DOWN",
      "elk.edgeRouting": "ORTHOGONAL",
      "elk.spacing.nodeNode": "30",
      "elk.layered.spacing.nodeNodeBetweenLayers": "50",
      "elk.layered.spacing.edgeNodeBetweenLayers": "20",
      "elk.spacing.componentComponent": "40",
      "elk.padding": "[top=20,left=20,bottom=20,right=20]",
      ...(banded ? { "elk.partitioning.activate": "true" } : {}),
    },
    children: nodes.map((n) => ({
      id: n.id,
      width: n.w,
      height: n.h,
      ...(banded ? { layoutOptions: { "elk.partitioning.partition": String(n.band ?? 0) } } : {}),
    })),
    edges: edges
      .filter((e) => e.source !== e.target && ids.has(e.source) && ids.has(e.target))
      .map((e) => ({ id: e.id, sources: [e.source], targets: [e.target] })),
  };
  const laid = await elk.layout(graph);
  const positions = new Map<string, Point>();
  for (const c of laid.children ?? []) positions.set(c.id, { x: Math.round(c.x ?? 0), y: Math.round(c.y ?? 0) });
  const bendpoints = new Map<string, Point[]>();
  for (const e of laid.edges ?? []) {
    const points = (e.sections ?? []).flatMap((s) => s.bendPoints ?? []);
    bendpoints.set(
      e.id,
      points.map((p) => ({ x: Math.round(p.x), y: Math.round(p.y) })),
    );
  }
  return { positions, bendpoints, width: Math.round(laid.width ?? 0), height: Math.round(laid.height ?? 0) };
}
