import type { RenderContext } from "./context.ts";
import { iconDef } from "./defs.ts";
import { pluginIconResolver } from "./plugin-icon.ts";
import { ConnectionRouter, renderConnection } from "./render-connection.ts";
import { renderNode } from "./render-node.ts";
import type { Box, Point } from "./route.ts";
import type { RenderConnection, RenderNode, RenderOptions } from "./types.ts";

/**
 * The view renderer in pieces, for the browser canvas: one node or one connection at a time, with the same code
 * (and so the same markup) as renderViewSvg, so the editor draws exactly what the server's SVG shows. Every piece
 * of text in the markup is escaped by the renderer; definitions (type icons, markers) accumulate as pieces use them.
 */
export type SceneRenderer = {
  node(node: RenderNode, box: Box, hasChildren: boolean): string;
  /**
   * Markup and route of each connection that can be drawn, by id (only those in `only` when given); the router sees
   * all connections, so a connection ending on another connection is routed as the server routes it.
   */
  connections(
    boxes: ReadonlyMap<string, Box>,
    connections: readonly RenderConnection[],
    only?: ReadonlySet<string>,
  ): Map<string, DrawnConnection>;
  /** <defs> content for everything drawn so far. */
  defs(): string;
  /** Changes whenever defs() would return something new. */
  defsVersion(): number;
};

export type DrawnConnection = { markup: string; points: Point[] };

export function createSceneRenderer(opts: RenderOptions = {}): SceneRenderer {
  const prefix = (opts.idPrefix ?? "ams-").replace(/[^A-Za-z0-9_-]/g, "") || "ams-";
  const icons = new Set<string>();
  const markers = new Map<string, string>();
  const pluginIcon = pluginIconResolver(opts.resolveIcon);
  let version = 0;
  const context = (): RenderContext => ({
    prefix,
    out: [],
    icons,
    markers,
    bounds: { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity },
    pluginIcon,
  });
  const track = <T>(draw: () => T): T => {
    const before = icons.size + markers.size;
    const result = draw();
    if (icons.size + markers.size !== before) version++;
    return result;
  };
  return {
    node: (node, box, hasChildren) =>
      track(() => {
        const ctx = context();
        renderNode(ctx, node, box, hasChildren);
        return ctx.out.join("");
      }),
    connections: (boxes, connections, only) =>
      track(() => {
        const router = new ConnectionRouter(boxes, connections);
        const result = new Map<string, DrawnConnection>();
        for (const c of connections) {
          if (only && !only.has(c.id)) continue;
          const points = router.route(c.id);
          if (!points) continue;
          const ctx = context();
          renderConnection(ctx, router, c);
          result.set(c.id, { markup: ctx.out.join(""), points });
        }
        return result;
      }),
    defs: () => {
      const out: string[] = [];
      for (const type of icons) out.push(iconDef(type, `${prefix}i-${type}`));
      for (const def of markers.values()) out.push(def);
      return out.join("");
    },
    defsVersion: () => version,
  };
}
