import { ELEMENT_NOTATION, RELATIONSHIP_NOTATION } from "@ams/shared";
import { must } from "@ams/shared/testing";
import type { RenderConnection, RenderInput, RenderNode } from "../../src/render/types.ts";

/** A deterministic large view: `nodeCount` nodes (a fifth of them nested in parents) and `connectionCount` connections. */
export function largeView(nodeCount = 200, connectionCount = 300): RenderInput {
  let seed = 42;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const types = Object.keys(ELEMENT_NOTATION);
  const relTypes = Object.keys(RELATIONSHIP_NOTATION);
  const nodes: RenderNode[] = [];
  const parents = Math.floor(nodeCount / 10);
  for (let i = 0; i < nodeCount; i++) {
    const isChild = i >= parents && i < parents * 3;
    const parent = isChild ? nodes[(i - parents) % parents] : undefined;
    const col = i % 20;
    const row = Math.floor(i / 20);
    const x = parent ? parent.x + 10 + ((i - parents) % 2) * 130 : col * 300;
    const y = parent ? parent.y + 40 : row * 200;
    nodes.push({
      id: `n-${i}`,
      kind: "element",
      parentId: parent?.id ?? null,
      x,
      y,
      w: i < parents ? 280 : 120,
      h: i < parents ? 120 : 55,
      element: {
        type: i < parents ? "ApplicationComponent" : must(types[Math.floor(rnd() * types.length)], "a type"),
        name: `Element number ${i} with a reasonably long name ${Math.floor(rnd() * 1e6)}`,
        iconPack: i % 7 === 0 ? `icon-${i % 3}` : null,
      },
    });
  }
  const connections: RenderConnection[] = [];
  for (let i = 0; i < connectionCount; i++) {
    const s = must(nodes[Math.floor(rnd() * nodeCount)], "a source node");
    const t = must(nodes[Math.floor(rnd() * nodeCount)], "a target node");
    connections.push({
      id: `c-${i}`,
      kind: "relationship",
      sourceId: s.id,
      targetId: t.id,
      bendpoints: i % 4 === 0 ? [{ x: s.x + 30, y: t.y - 20 }] : null,
      relationship: {
        type: must(relTypes[i % relTypes.length], "a relationship type"),
        name: i % 5 === 0 ? `flow ${i}` : null,
        accessType: i % 3 === 0 ? "Write" : "Read",
      },
    });
  }
  return { view: { name: "Large" }, nodes, connections };
}
